import type { AppRole } from '@latchkey/shared';
import type { Icon } from '@tabler/icons-react';
import type { RouteObject, UIMatch } from 'react-router';

/** What each route declares in the route table; layouts, guards and the nav read it. */
export interface RouteHandle {
  /** Page title (shown as "<title> · Latchkey"). */
  title?: string;
  /** Roles that may open the route; none means any signed-in person (superAdmin counts as admin). */
  roles?: readonly AppRole[];
  /** The route works on a portal: hidden from the nav and explained when the person has none. */
  requiresPortal?: boolean;
  /** Entry in the layout's navigation. */
  nav?: { label: string; icon: Icon };
  /** Set on layout routes: their navigation, derived from their children. */
  navItems?: readonly NavItem[];
}

export interface NavItem {
  to: string;
  label: string;
  icon: Icon;
  roles?: readonly AppRole[];
  requiresPortal?: boolean;
}

export type AppRouteObject = RouteObject & { handle?: RouteHandle };

/** The navigation of a layout at `base`, in the order its children are declared. */
export function navItemsFrom(base: string, children: readonly AppRouteObject[]): NavItem[] {
  return children.flatMap((route) => {
    const handle = route.handle;
    // An index route with a nav entry is the area's home (the basic user's /user lock list).
    if (!handle?.nav || (!route.index && !route.path)) return [];
    return [
      {
        to: route.index ? base : `${base}/${route.path}`,
        label: handle.nav.label,
        icon: handle.nav.icon,
        roles: handle.roles,
        requiresPortal: handle.requiresPortal,
      },
    ];
  });
}

/** The handle of a match, typed. */
export function handleOf(match: UIMatch): RouteHandle {
  return (match.handle ?? {}) as RouteHandle;
}

/** The deepest value of a handle field among the current matches. */
export function deepestHandle<K extends keyof RouteHandle>(
  matches: readonly UIMatch[],
  key: K,
): RouteHandle[K] | undefined {
  for (let i = matches.length - 1; i >= 0; i -= 1) {
    const value = handleOf(matches[i]!)[key];
    if (value !== undefined) return value;
  }
  return undefined;
}
