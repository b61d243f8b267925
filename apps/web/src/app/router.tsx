import {
  IconActivity,
  IconBell,
  IconCalendarEvent,
  IconDialpad,
  IconHelp,
  IconQrcode,
  IconHistory,
  IconHome,
  IconId,
  IconInfoCircle,
  IconKey,
  IconLayoutDashboard,
  IconLock,
  IconLockCancel,
  IconMail,
  IconBuildingStore,
  IconReceipt,
  IconRefreshDot,
  IconSettings,
  IconUsers,
  IconUsersGroup,
  IconWifiOff,
  IconRocket,
  IconShoppingBag,
  IconCreditCard,
} from '@tabler/icons-react';
import { createBrowserRouter, redirect } from 'react-router';
import { signOut } from '@/features/auth/api/logout';
import { LoginPage } from '@/features/auth/components/login-page';
import { isSignedIn } from '@/lib/auth-token';
import { getSystemType } from '@/lib/system-type';
import { hasRequiredRole } from '@/lib/authorization';
import { queryClient } from '@/lib/query-client';
import { sessionQueryOptions } from '@/lib/session';
import { landingLoader, redirectIfSignedIn, requireSession } from './guards';
import { PendingPage } from './layouts/pending-page';
import { PublicLayout } from './layouts/public-layout';
import { RouteError } from './layouts/route-error';
import { RootLayout } from './layouts/root-layout';
import { navItemsFrom, type AppRouteObject } from './route-handle';

/**
 * THE route table (brief §2). Every screen is loaded on demand but the landing one: sign-in and
 * its layout come with the first load, so the page most first visits open needs no second round
 * of requests (docs/benchmarks.md, first load). Handles carry the title, the roles that may open
 * a route and its nav entry, so guards and navigation derive from here.
 */

const ADMIN = ['admin'] as const; // a superAdmin counts as an admin (lib/authorization.ts)
const PLATFORM = ['superAdmin'] as const; // platform staff only

// React Router empties a `lazy` object once it has loaded it, so every route gets its own
// object, made afresh for each router (createRoutes is called once per router).
const screens = {
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
  billing: () => ({
    Component: async () => (await import('@/features/billing/components/billing-page')).BillingPage,
  }),
  monthBill: () => ({
    Component: async () => (await import('@/features/billing/components/month-bill-page')).MonthBillPage,
  }),
  printBill: () => ({
    Component: async () => (await import('@/features/billing/components/print-bill-page')).PrintBillPage,
  }),
  reseller: () => ({
    Component: async () => (await import('@/features/resellers/components/reseller-page')).ResellerPage,
  }),
  resellerSignup: () => ({
    Component: async () =>
      (await import('@/features/resellers/components/reseller-signup-page')).ResellerSignupPage,
    loader: async () =>
      (await import('@/features/resellers/components/reseller-signup-page')).resellerSignupLoader,
  }),
  printLayout: () => ({ Component: async () => (await import('./layouts/print-layout')).PrintLayout }),
  // Rentals (issue 12, R1): listings, their requests, and the public share-lock pages.
  listings: () => ({
    Component: async () => (await import('@/features/listings/components/listings-page')).ListingsPage,
  }),
  listing: () => ({
    Component: async () => (await import('@/features/listings/components/listing-page')).ListingPage,
  }),
  listingEdit: () => ({
    Component: async () => (await import('@/features/listings/components/listing-edit-page')).ListingEditPage,
  }),
  stay: () => ({
    Component: async () => (await import('@/features/listings/components/stay-page')).StayPage,
  }),
  shareLanding: () => ({
    Component: async () => (await import('@/features/share-lock/components/landing-page')).LandingPage,
  }),
  shareRequest: () => ({
    Component: async () => (await import('@/features/share-lock/components/request-page')).RequestPage,
  }),
  shareAccount: () => ({
    Component: async () =>
      (await import('@/features/share-lock/components/guest-account-page')).GuestAccountPage,
  }),
  // Rentals (issue 12, R2): the rental center and the guest's review page.
  rentalCenter: () => ({
    Component: async () =>
      (await import('@/features/rental-center/components/rental-center-page')).RentalCenterPage,
  }),
  review: () => ({
    Component: async () => (await import('@/features/share-lock/components/review-page')).ReviewPage,
  }),
  blankLayout: () => ({ Component: async () => (await import('./layouts/blank-layout')).BlankLayout }),
  appLayout: () => ({ Component: async () => (await import('./layouts/app-layout')).AppLayout }),
  userLayout: () => ({ Component: async () => (await import('./layouts/user-layout')).UserLayout }),
  // Commerce (issue 13, M1): the shop, checkout outcome pages, plans and staff payments.
  shopLayout: () => ({ Component: async () => (await import('./layouts/shop-layout')).ShopLayout }),
  products: () => ({
    Component: async () => (await import('@/features/shop/components/product-list-page')).ProductListPage,
  }),
  product: () => ({
    Component: async () => (await import('@/features/shop/components/product-page')).ProductPage,
  }),
  appProducts: () => ({
    Component: async () => (await import('@/features/shop/components/product-list-page')).AppProductsPage,
  }),
  appProduct: () => ({
    Component: async () => (await import('@/features/shop/components/product-page')).AppProductPage,
  }),
  cart: () => ({ Component: async () => (await import('@/features/shop/components/cart-page')).CartPage }),
  address: () => ({
    Component: async () => (await import('@/features/shop/components/address-page')).AddressPage,
  }),
  pickShipping: () => ({
    Component: async () => (await import('@/features/shop/components/shipping-page')).ShippingPage,
  }),
  myOrders: () => ({
    Component: async () => (await import('@/features/shop/components/my-orders-page')).MyOrdersPage,
  }),
  checkoutSuccess: () => ({
    Component: async () => (await import('@/features/checkout/components/success-page')).SuccessPage,
  }),
  checkoutCanceled: () => ({
    Component: async () => (await import('@/features/checkout/components/canceled-page')).CanceledPage,
  }),
  gotoApp: () => ({
    Component: async () => (await import('@/features/checkout/components/goto-app-page')).GotoAppPage,
  }),
  goPro: () => ({
    Component: async () => (await import('@/features/plans/components/plan-pages')).GoProPage,
  }),
  upgrade: () => ({
    Component: async () => (await import('@/features/plans/components/plan-pages')).UpgradePage,
  }),
  upgradeLegacy: () => ({
    Component: async () => (await import('@/features/plans/components/plan-pages')).UpgradeLegacyPage,
  }),
  staffPayments: () => ({
    Component: async () =>
      (await import('@/features/staff-payments/components/staff-payments-page')).StaffPaymentsPage,
  }),
  notFound: () => ({ Component: async () => (await import('./layouts/not-found')).NotFoundPage }),
};

/**
 * The dashboard's loader: its calls start as soon as the session says the person may make them,
 * while the screen's code still loads, instead of once that code has loaded and rendered (an
 * admin's first load after sign-in; see prefetch-dashboard.ts). It waits for nothing: the layout's
 * guard (the same session query) decides what the person sees.
 */
const prefetchDashboard = () => {
  if (!isSignedIn()) return null;
  void Promise.all([
    queryClient.ensureQueryData(sessionQueryOptions()),
    import('@/features/dashboard/api/prefetch-dashboard'),
  ])
    .then(([session, { prefetchDashboard: prefetch }]) => {
      if (hasRequiredRole(session.roles, ADMIN) && session.portal !== null) prefetch(queryClient);
    })
    .catch(() => {
      // A session that cannot be read is the guard's to handle; the screen asks again itself.
    });
  return null;
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
    // Any signed-in person: their reseller account, or a way to open one. The reseller host (brief
    // §1 system types) shows it first in the navigation and lands there.
    path: 'reseller',
    handle: {
      title: 'Reseller',
      ...(getSystemType() === 'reseller' && { nav: { label: 'Reseller', icon: IconBuildingStore } }),
    },
    lazy: screens.reseller(),
  },
  {
    path: 'dashboard',
    handle: {
      title: 'Dashboard',
      roles: ADMIN,
      requiresPortal: true,
      nav: { label: 'Dashboard', icon: IconLayoutDashboard },
    },
    loader: prefetchDashboard,
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
    path: 'listing',
    handle: {
      title: 'Listings',
      roles: ADMIN,
      requiresPortal: true,
      nav: { label: 'Listings', icon: IconHome },
    },
    lazy: screens.listings(),
  },
  {
    path: 'listing/:listingId',
    handle: { title: 'Listing', roles: ADMIN, requiresPortal: true },
    lazy: screens.listing(),
  },
  {
    path: 'listing/edit/:listingId',
    handle: { title: 'Edit listing', roles: ADMIN, requiresPortal: true },
    lazy: screens.listingEdit(),
  },
  {
    path: 'listing/:listingId/request/:reqId',
    handle: { title: 'Request', roles: ADMIN, requiresPortal: true },
    lazy: screens.stay(),
  },
  {
    // Anyone signed in: what they host here (admins every listing, members theirs) and their own stays.
    path: 'rentalcenter',
    handle: { title: 'Rental center', nav: { label: 'Rental center', icon: IconCalendarEvent } },
    lazy: screens.rentalCenter(),
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
    path: 'billing',
    handle: {
      title: 'Billing',
      roles: ADMIN,
      requiresPortal: true,
      nav: { label: 'Billing', icon: IconReceipt },
    },
    lazy: screens.billing(),
  },
  {
    path: 'billing/:year/:month',
    handle: { title: 'Bill', roles: ADMIN, requiresPortal: true },
    lazy: screens.monthBill(),
  },
  // Commerce (issue 13, M1): plans (admins act on the portal's plan), the shop, orders, staff payments.
  {
    path: 'upgrade',
    handle: {
      title: 'Plan and payment',
      roles: ADMIN,
      requiresPortal: true,
      nav: { label: 'Plan', icon: IconRocket },
    },
    lazy: screens.upgrade(),
  },
  { path: 'gopro', handle: { title: 'Go Pro', roles: ADMIN, requiresPortal: true }, lazy: screens.goPro() },
  {
    path: 'upgradeLegacy',
    handle: { title: 'Pay for a period', roles: ADMIN, requiresPortal: true },
    lazy: screens.upgradeLegacy(),
  },
  {
    path: 'products',
    handle: { title: 'Shop', nav: { label: 'Shop', icon: IconShoppingBag } },
    lazy: screens.appProducts(),
  },
  { path: 'product/:productId', handle: { title: 'Product' }, lazy: screens.appProduct() },
  { path: 'orders', handle: { title: 'Your orders' }, lazy: screens.myOrders() },
  {
    path: 'devTools/payments',
    handle: { title: 'Payments', roles: PLATFORM, nav: { label: 'Payments', icon: IconCreditCard } },
    lazy: screens.staffPayments(),
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
    // The same rental center for people in the /user area: listings they look after, their own stays.
    path: 'rentalcenter',
    handle: { title: 'Rental center', nav: { label: 'Rental center', icon: IconCalendarEvent } },
    lazy: screens.rentalCenter(),
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
    Component: LoginPage,
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
          Component: PublicLayout,
          children: [
            { index: true, ...loginRoute() },
            {
              path: 'signup',
              handle: { title: 'Create your account' },
              loader: redirectIfSignedIn,
              lazy: screens.signup(),
            },
            {
              path: 'reseller-signup',
              handle: { title: 'Become a reseller' },
              lazy: screens.resellerSignup(),
            },
          ],
        },
        {
          path: 'auth',
          Component: PublicLayout,
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
            // Share-lock pages for guests and visitors (no sign-in): a share link's landing, a request page.
            { path: 's', handle: { title: 'Your stay' }, lazy: screens.shareLanding() },
            { path: 's/r/:listingId', handle: { title: 'Request a stay' }, lazy: screens.shareRequest() },
            // The link mailed to a stay's address: its owner chooses a password (issue 16 defect 1).
            { path: 's/account', handle: { title: 'Keep your stay' }, lazy: screens.shareAccount() },
            { path: 'review', handle: { title: 'Review your stay' }, lazy: screens.review() },
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
        {
          // The brief's print layout: documents alone on the page, for the browser's print.
          path: 'print',
          loader: requireSession,
          lazy: screens.printLayout(),
          children: [
            {
              path: 'bill/:historyId',
              handle: { title: 'Invoice', roles: ADMIN, requiresPortal: true },
              lazy: screens.printBill(),
            },
          ],
        },
        {
          // The shop and the pages a payment provider returns to (brief §2 public routes).
          lazy: screens.shopLayout(),
          children: [
            { path: 'product', handle: { title: 'Shop' }, lazy: screens.products() },
            { path: 'product/:productId', handle: { title: 'Product' }, lazy: screens.product() },
            { path: 'cart', handle: { title: 'Cart' }, lazy: screens.cart() },
            { path: 'address', handle: { title: 'Delivery address' }, lazy: screens.address() },
            { path: 'pickShipping', handle: { title: 'Shipping' }, lazy: screens.pickShipping() },
            { path: 'success', handle: { title: 'Payment' }, lazy: screens.checkoutSuccess() },
            { path: 'canceled', handle: { title: 'Payment canceled' }, lazy: screens.checkoutCanceled() },
            { path: 'goto-app', handle: { title: 'Manage your hardware' }, lazy: screens.gotoApp() },
          ],
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
