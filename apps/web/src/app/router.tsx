import {
  IconActivity,
  IconBell,
  IconDialpad,
  IconHelp,
  IconQrcode,
  IconHistory,
  IconId,
  IconInfoCircle,
  IconKey,
  IconLayoutDashboard,
  IconLock,
  IconLockCancel,
  IconMail,
  IconRefreshDot,
  IconSettings,
  IconUsers,
  IconUsersGroup,
  IconWifiOff,
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
const PLATFORM = ['superAdmin'] as const; // platform staff only

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
  settings: () => ({
    Component: async () => (await import('@/features/profile/components/settings-page')).SettingsPage,
  }),
  forgotPassword: () => ({
    Component: async () =>
      (await import('@/features/auth/components/forgot-password-page')).ForgotPasswordPage,
  }),
  resetPassword: () => ({
    Component: async () => (await import('@/features/auth/components/reset-password-page')).ResetPasswordPage,
  }),
  legacyReset: () => ({
    Component: async () => (await import('@/features/auth/components/reset-password-page')).LegacyResetPage,
  }),
  verifyEmail: () => ({
    Component: async () => (await import('@/features/auth/components/verify-email-page')).VerifyEmailPage,
  }),
  mustActivate: () => ({
    Component: async () => (await import('@/features/auth/components/must-activate-page')).MustActivatePage,
  }),
  invitation: () => ({
    Component: async () => (await import('@/features/invitations/components/invitation-page')).InvitationPage,
  }),
  spaceInvitation: () => ({
    Component: async () =>
      (await import('@/features/invitations/components/space-invitation-page')).SpaceInvitationPage,
  }),
  devMailbox: () => ({
    Component: async () =>
      (await import('@/features/dev-mailbox/components/dev-mailbox-page')).DevMailboxPage,
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
  companyCodes: () => ({
    Component: async () =>
      (await import('@/features/company-codes/components/company-codes-page')).CompanyCodesPage,
  }),
  companyCodeNew: () => ({
    Component: async () =>
      (await import('@/features/company-codes/components/company-code-new-page')).CompanyCodeNewPage,
  }),
  keys: () => ({
    Component: async () => (await import('@/features/keys/components/keys-page')).KeysPage,
  }),
  key: () => ({
    Component: async () => (await import('@/features/keys/components/key-page')).KeyPage,
  }),
  fingerprint: () => ({
    Component: async () =>
      (await import('@/features/fingerprints/components/fingerprint-page')).FingerprintPage,
  }),
  offline: () => ({
    Component: async () =>
      (await import('@/features/devices/components/offline-devices-page')).OfflineDevicesPage,
  }),
  alerts: () => ({
    Component: async () => (await import('@/features/alerts/components/alerts-page')).AlertsPage,
  }),
  activity: () => ({
    Component: async () => (await import('@/features/activity/components/activity-page')).ActivityPage,
  }),
  myLocks: () => ({
    Component: async () => (await import('@/features/my-access/components/my-locks-page')).MyLocksPage,
  }),
  myLock: () => ({
    Component: async () => (await import('@/features/my-access/components/my-lock-page')).MyLockPage,
  }),
  syncCenter: () => ({
    Component: async () => (await import('@/features/sync/components/sync-center-page')).SyncCenterPage,
  }),
  userSync: () => ({
    Component: async () => (await import('@/features/sync/components/user-sync-page')).UserSyncPage,
  }),
  help: () => ({
    Component: async () => (await import('@/features/my-access/components/help-page')).HelpPage,
  }),
  qr: () => ({
    Component: async () => (await import('@/features/my-access/components/qr-page')).QrPage,
  }),
  about: () => ({
    Component: async () => (await import('@/features/about/components/about-page')).AboutPage,
  }),
  cards: () => ({
    Component: async () => (await import('@/features/cards/components/cards-page')).CardsPage,
  }),
  publicLayout: () => ({ Component: async () => (await import('./layouts/public-layout')).PublicLayout }),
  blankLayout: () => ({ Component: async () => (await import('./layouts/blank-layout')).BlankLayout }),
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
    path: 'activity',
    handle: {
      title: 'Activity',
      roles: ADMIN,
      requiresPortal: true,
      nav: { label: 'Activity', icon: IconActivity },
    },
    lazy: screens.activity(),
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
    path: 'offline',
    handle: {
      title: 'Offline locks',
      roles: ADMIN,
      requiresPortal: true,
      nav: { label: 'Offline locks', icon: IconWifiOff },
    },
    lazy: screens.offline(),
  },
  {
    path: 'notificationAndAlert',
    handle: {
      title: 'Alerts',
      roles: ADMIN,
      requiresPortal: true,
      nav: { label: 'Alerts', icon: IconBell },
    },
    lazy: screens.alerts(),
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
    path: 'cards',
    handle: {
      title: 'Cards',
      roles: ADMIN,
      requiresPortal: true,
      nav: { label: 'Cards', icon: IconId },
    },
    lazy: screens.cards(),
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
    path: 'keys',
    handle: {
      title: 'Keys',
      roles: ADMIN,
      requiresPortal: true,
      nav: { label: 'Keys', icon: IconKey },
    },
    lazy: screens.keys(),
  },
  {
    path: 'keys/:keyId',
    handle: { title: 'Key', roles: ADMIN, requiresPortal: true },
    lazy: screens.key(),
  },
  {
    path: 'access-codes',
    handle: {
      title: 'Company codes',
      roles: ADMIN,
      requiresPortal: true,
      nav: { label: 'Company codes', icon: IconDialpad },
    },
    lazy: screens.companyCodes(),
  },
  {
    path: 'access-code/new',
    handle: { title: 'New company code', roles: ADMIN, requiresPortal: true },
    lazy: screens.companyCodeNew(),
  },
  {
    path: 'fingerprint/:id',
    handle: { title: 'Fingerprint', roles: ADMIN, requiresPortal: true },
    lazy: screens.fingerprint(),
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
    path: 'about',
    handle: {
      title: 'About',
      roles: ADMIN,
      requiresPortal: true,
      nav: { label: 'About', icon: IconInfoCircle },
    },
    lazy: screens.about(),
  },
  {
    path: 'devTools/mail',
    handle: {
      title: 'Dev mailbox',
      roles: PLATFORM,
      nav: { label: 'Dev mailbox', icon: IconMail },
    },
    lazy: screens.devMailbox(),
  },
  {
    path: 'settings',
    handle: { title: 'Settings', nav: { label: 'Settings', icon: IconSettings } },
    lazy: screens.settings(),
  },
  // The same page under the brief's other names: settingsProfile (a child route of /app in the
  // brief) and profile (the earlier address, in old mails and bookmarks).
  { path: 'settingsProfile', handle: { title: 'Settings' }, lazy: screens.settings() },
  { path: 'profile', handle: { title: 'Settings' }, lazy: screens.settings() },
];

const userChildren = (): AppRouteObject[] => [
  {
    index: true,
    handle: { title: 'Your locks', nav: { label: 'Locks', icon: IconLock } },
    lazy: screens.myLocks(),
  },
  { path: 'locks/:lockId', handle: { title: 'Lock' }, lazy: screens.myLock() },
  {
    path: 'qr',
    handle: { title: 'QR code', requiresPortal: true, nav: { label: 'QR code', icon: IconQrcode } },
    lazy: screens.qr(),
  },
  {
    path: 'help',
    handle: { title: 'Help', nav: { label: 'Help', icon: IconHelp } },
    lazy: screens.help(),
  },
  {
    path: 'settingsProfile',
    handle: { title: 'Settings', nav: { label: 'Settings', icon: IconSettings } },
    lazy: screens.settings(),
  },
];

/** The brief's sync layout (/sync): admin screens about locks' credential sync, in the /app frame. */
const syncChildren = (): AppRouteObject[] => [
  redirectIndex('/sync/center'),
  {
    path: 'center',
    handle: {
      title: 'Sync center',
      roles: ADMIN,
      requiresPortal: true,
      nav: { label: 'Sync center', icon: IconRefreshDot },
    },
    lazy: screens.syncCenter(),
  },
  // Anyone signed in: admins choose the person, a basic user sees their own.
  { path: 'user', handle: { title: 'Credentials on locks', requiresPortal: true }, lazy: screens.userSync() },
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
  const sync = syncChildren();
  // The admin navigation lists the /app screens and the sync center (before Settings), in both layouts.
  const appNav = navItemsFrom('/app', app);
  const settingsAt = appNav.findIndex((item) => item.to === '/app/settings');
  const adminNav = [
    ...appNav.slice(0, settingsAt),
    ...navItemsFrom('/sync', sync),
    ...appNav.slice(settingsAt),
  ];
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
            { path: 'forgot', handle: { title: 'Forgot your password' }, lazy: screens.forgotPassword() },
            { path: 'reset', handle: { title: 'Choose a new password' }, lazy: screens.resetPassword() },
          ],
        },
        {
          // Mail links and the steps between sign-in and the app: no navigation around them.
          lazy: screens.blankLayout(),
          children: [
            { path: 'verify', handle: { title: 'Confirm your email' }, lazy: screens.verifyEmail() },
            {
              path: 'must-activate',
              handle: { title: 'Confirm your email' },
              loader: requireSession,
              lazy: screens.mustActivate(),
            },
            {
              path: 'reset/:resetToken',
              handle: { title: 'Choose a new password' },
              lazy: screens.legacyReset(),
            },
            { path: 'invite', handle: { title: 'Invitation' }, lazy: screens.invitation() },
            {
              path: 'space/:portalId',
              handle: { title: 'Invitation' },
              loader: requireSession,
              lazy: screens.spaceInvitation(),
            },
          ],
        },
        {
          path: 'app',
          loader: requireSession,
          handle: { navItems: adminNav },
          lazy: screens.appLayout(),
          children: app,
        },
        {
          path: 'sync',
          loader: requireSession,
          handle: { navItems: adminNav },
          lazy: screens.appLayout(),
          children: sync,
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
