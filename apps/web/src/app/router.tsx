import {
  IconHistory,
  IconLayoutDashboard,
  IconLock,
  IconLockCancel,
  IconUserCircle,
  IconUsers,
  IconUsersGroup,
} from '@tabler/icons-react';
import { createBrowserRouter, redirect } from 'react-router';
import { signOut } from '@/features/auth/api/logout';
import { landingLoader, redirectIfSignedIn, requireSession } from './guards';
import { PendingPage } from './layouts/pending-page';
import { RouteError } from './layouts/route-error';
import { RootLayout } from './layouts/root-layout';
import { navItemsFrom, type AppRouteObject } from './route-handle';

/**
 * THE route table (brief §2). Every screen is loaded on demand; handles carry the title, the
 * roles that may open a route and its nav entry, so guards and navigation derive from here.
 */

const ADMIN = ['admin'] as const; // a superAdmin counts as an admin (lib/authorization.ts)

// React Router empties a `lazy` object once it has loaded it, so every route gets its own
// object, made afresh for each router (createRoutes is called once per router).
const screens = {
  login: () => ({ Component: async () => (await import('@/features/auth/components/login-page')).LoginPage }),
  signup: () => ({
    Component: async () => (await import('@/features/auth/components/signup-page')).SignupPage,
  }),
  dashboard: () => ({
    Component: async () => (await import('@/features/dashboard/components/dashboard-page')).DashboardPage,
  }),
  profile: () => ({
    Component: async () => (await import('@/features/profile/components/profile-page')).ProfilePage,
  }),
  devices: () => ({
    Component: async () => (await import('@/features/devices/components/devices-page')).DevicesPage,
  }),
  device: () => ({
    Component: async () => (await import('@/features/devices/components/device-page')).DevicePage,
  }),
  members: () => ({
    Component: async () => (await import('@/features/members/components/members-page')).MembersPage,
  }),
  member: () => ({
    Component: async () => (await import('@/features/members/components/member-page')).MemberPage,
  }),
  groups: () => ({
    Component: async () => (await import('@/features/groups/components/groups-page')).GroupsPage,
  }),
  group: () => ({
    Component: async () => (await import('@/features/groups/components/group-page')).GroupPage,
  }),
  lockouts: () => ({
    Component: async () => (await import('@/features/lockouts/components/lockouts-page')).LockoutsPage,
  }),
  lockout: () => ({
    Component: async () => (await import('@/features/lockouts/components/lockout-page')).LockoutPage,
  }),
  lockoutEdit: () => ({
    Component: async () => (await import('@/features/lockouts/components/lockout-edit-page')).LockoutEditPage,
  }),
  changeLog: () => ({
    Component: async () => (await import('@/features/audit/components/change-log-page')).ChangeLogPage,
  }),
  publicLayout: () => ({ Component: async () => (await import('./layouts/public-layout')).PublicLayout }),
  appLayout: () => ({ Component: async () => (await import('./layouts/app-layout')).AppLayout }),
  userLayout: () => ({ Component: async () => (await import('./layouts/user-layout')).UserLayout }),
  notFound: () => ({ Component: async () => (await import('./layouts/not-found')).NotFoundPage }),
};

/** An index route that only forwards to `to`. */
const redirectIndex = (to: string): AppRouteObject => ({
  index: true,
  loader: () => redirect(to),
  Component: PendingPage,
});

const appChildren = (): AppRouteObject[] => [
  redirectIndex('/app/dashboard'),
  {
    path: 'dashboard',
    handle: {
      title: 'Dashboard',
      roles: ADMIN,
      requiresPortal: true,
      nav: { label: 'Dashboard', icon: IconLayoutDashboard },
    },
    lazy: screens.dashboard(),
  },
  {
    path: 'device',
    handle: {
      title: 'Locks',
      roles: ADMIN,
      requiresPortal: true,
      nav: { label: 'Locks', icon: IconLock },
    },
    lazy: screens.devices(),
  },
  {
    path: 'device/:deviceId',
    handle: { title: 'Lock', roles: ADMIN, requiresPortal: true },
    lazy: screens.device(),
  },
  {
    path: 'user',
    handle: {
      title: 'People',
      roles: ADMIN,
      requiresPortal: true,
      nav: { label: 'People', icon: IconUsers },
    },
    lazy: screens.members(),
  },
  {
    path: 'user/:userId',
    handle: { title: 'Person', roles: ADMIN, requiresPortal: true },
    lazy: screens.member(),
  },
  {
    path: 'group',
    handle: {
      title: 'Groups',
      roles: ADMIN,
      requiresPortal: true,
      nav: { label: 'Groups', icon: IconUsersGroup },
    },
    lazy: screens.groups(),
  },
  {
    path: 'group/:groupId',
    handle: { title: 'Group', roles: ADMIN, requiresPortal: true },
    lazy: screens.group(),
  },
  {
    path: 'lockout',
    handle: {
      title: 'Lockouts',
      roles: ADMIN,
      requiresPortal: true,
      nav: { label: 'Lockouts', icon: IconLockCancel },
    },
    lazy: screens.lockouts(),
  },
  {
    path: 'lockout/:lockoutId',
    handle: { title: 'Lockout', roles: ADMIN, requiresPortal: true },
    lazy: screens.lockout(),
  },
  {
    path: 'lockout/edit/:lockoutId',
    handle: { title: 'Edit lockout', roles: ADMIN, requiresPortal: true },
    lazy: screens.lockoutEdit(),
  },
  {
    path: 'adminChangeLog',
    handle: {
      title: 'Change log',
      roles: ADMIN,
      requiresPortal: true,
      nav: { label: 'Change log', icon: IconHistory },
    },
    lazy: screens.changeLog(),
  },
  {
    path: 'profile',
    handle: { title: 'Profile', nav: { label: 'Profile', icon: IconUserCircle } },
    lazy: screens.profile(),
  },
];

const userChildren = (): AppRouteObject[] => [
  redirectIndex('/user/settingsProfile'),
  {
    path: 'settingsProfile',
    handle: { title: 'Profile', nav: { label: 'Profile', icon: IconUserCircle } },
    lazy: screens.profile(),
  },
];

const loginRoute = () =>
  ({
    handle: { title: 'Sign in' },
    loader: redirectIfSignedIn,
    lazy: screens.login(),
  }) satisfies AppRouteObject;

/** The route table; a fresh copy per router. */
export function createRoutes(): AppRouteObject[] {
  const app = appChildren();
  const user = userChildren();
  return [
    {
      id: 'root',
      path: '/',
      Component: RootLayout,
      ErrorBoundary: RouteError,
      HydrateFallback: () => null,
      children: [
        {
          lazy: screens.publicLayout(),
          children: [
            { index: true, ...loginRoute() },
            {
              path: 'signup',
              handle: { title: 'Create your account' },
              loader: redirectIfSignedIn,
              lazy: screens.signup(),
            },
          ],
        },
        {
          path: 'auth',
          lazy: screens.publicLayout(),
          children: [
            redirectIndex('/auth/login'),
            { path: 'login', ...loginRoute() },
            {
              path: 'logout',
              handle: { title: 'Signing out' },
              Component: PendingPage,
              loader: async () => {
                await signOut();
                return redirect('/');
              },
            },
            {
              path: 'landing',
              handle: { title: 'Signing in' },
              Component: PendingPage,
              loader: landingLoader,
            },
          ],
        },
        {
          path: 'app',
          loader: requireSession,
          handle: { navItems: navItemsFrom('/app', app) },
          lazy: screens.appLayout(),
          children: app,
        },
        {
          path: 'user',
          loader: requireSession,
          handle: { navItems: navItemsFrom('/user', user) },
          lazy: screens.userLayout(),
          children: user,
        },
        { path: '*', handle: { title: 'Page not found' }, lazy: screens.notFound() },
      ],
    },
  ];
}

export function createAppRouter() {
  return createBrowserRouter(createRoutes());
}

export type AppRouter = ReturnType<typeof createAppRouter>;
