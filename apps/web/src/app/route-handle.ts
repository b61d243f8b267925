import type { AppRole, FeatureFlag } from '@latchkey/shared';
import type { Icon } from '@tabler/icons-react';
import type { ComponentType } from 'react';
import type { RouteObject, UIMatch } from 'react-router';

/** What each route declares in the route table; layouts, guards and the nav read it. */
export interface RouteHandle {
  /** Page title (shown as "<title> · Latchkey"). */
  title?: string;
  /** Roles that may open the route; none means any signed-in person (superAdmin counts as admin). */
  roles?: readonly AppRole[];
  /** The route works on a portal: hidden from the nav and explained when the person has none. */
  requiresPortal?: boolean;
  /** The feature flag the screen belongs to: hidden from the nav and explained while it is off. */
  feature?: FeatureFlag;
  /** Entry in the layout's navigation. */
  nav?: NavEntry;
  /** A blank-layout screen that reads as a document (content pages): a wider column. */
  wide?: boolean;
  /** Set on layout routes: their navigation, derived from their children. */
  navItems?: readonly NavItem[];
}

/**
 * The sections of a long navigation, in the order they are shown. Entries without a group come
 * first, without a heading (the dashboard, the activity feed: where a day starts).
 */
export const NAV_GROUPS = [
  // Platform staff's screens (the console, support inbox, developer tools): shown to superAdmins
  // only, and first, above their own portal's sections, which would push them below a laptop's fold.
  { id: 'platform', label: 'Platform' },
  { id: 'locks', label: 'Locks & access' },
  { id: 'people', label: 'People' },
  { id: 'rentals', label: 'Rentals' },
  { id: 'billing', label: 'Billing & shop' },
  { id: 'settings', label: 'Settings' },
] as const;

export type NavGroupId = (typeof NAV_GROUPS)[number]['id'];

/** A screen's entry in the navigation. */
export interface NavEntry {
  label: string;
  icon: Icon;
  /** The section it is listed under; none lists it at the top. */
  group?: NavGroupId;
  /**
   * Drawn after the label (e.g. a count of what waits there). A component rather than a value so
   * it can load its own data and render nothing when there is nothing to say.
   */
  badge?: ComponentType;
  /** Listed only for people with a reseller account (the layout knows: GET reseller/mine). */
  resellersOnly?: boolean;
  /**
   * Other screens (address patterns, their sub-pages included) where this entry is the current
   * one: Help & support is lit on /app/support too, which has no entry of its own.
   */
  alsoCurrentOn?: readonly string[];
}

export interface NavItem extends NavEntry {
  to: string;
  roles?: readonly AppRole[];
  requiresPortal?: boolean;
  feature?: FeatureFlag;
}

export type AppRouteObject = RouteObject & { handle?: RouteHandle };

/** A layout's navigation: its screens with a nav entry, in the order they are declared. */
export function navItemsFrom(
  screens: readonly { path: { pattern: string }; handle?: RouteHandle }[],
): NavItem[] {
  return screens.flatMap(({ path, handle }) => {
    if (!handle?.nav) return [];
    return [
      {
        to: path.pattern,
        ...handle.nav,
        roles: handle.roles,
        requiresPortal: handle.requiresPortal,
        feature: handle.feature,
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
