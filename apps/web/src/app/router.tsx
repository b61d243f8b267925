import {
  IconActivity,
  IconBell,
  IconCalendarEvent,
  IconDialpad,
  IconHelp,
  IconLifebuoy,
  IconQrcode,
  IconHistory,
  IconHome,
  IconId,
  IconKey,
  IconLayoutDashboard,
  IconReportAnalytics,
  IconLock,
  IconLockCancel,
  IconBuildingCommunity,
  IconBuildingStore,
  IconReceipt,
  IconRefreshDot,
  IconSettings,
  IconUsers,
  IconUsersGroup,
  IconWifiOff,
  IconRocket,
  IconShoppingBag,
  IconStar,
  IconTool,
  IconBuildingSkyscraper,
  IconToggleRight,
  IconActivityHeartbeat,
  IconBug,
  IconHandStop,
} from '@tabler/icons-react';
import { ROLE_PERMISSIONS } from '@latchkey/shared';
import { createBrowserRouter, redirect, type LoaderFunction, type NonIndexRouteObject } from 'react-router';
import { paths, type ScreenPath } from '@/config/paths';
import { signOut } from '@/features/auth/api/logout';
import { LoginPage } from '@/features/auth/components/login-page';
import { ListingsInboxBadge } from '@/features/dashboard/components/listings-inbox-badge';
import { isSignedIn } from '@/lib/auth-token';
import { getSystemType } from '@/lib/system-type';
import { hasRequiredRole } from '@/lib/authorization';
import { queryClient } from '@/lib/query-client';
import type { ScreenReads } from '@/lib/screen-reads';
import { sessionQueryOptions } from '@/lib/session';
import { storage } from '@/lib/storage';
import { landingLoader, redirectIfSignedIn, requireSession } from './guards';
import { PendingPage } from './layouts/pending-page';
import { PublicLayout } from './layouts/public-layout';
import { RouteError } from './layouts/route-error';
import { RootLayout } from './layouts/root-layout';
import { navItemsFrom, type AppRouteObject, type RouteHandle } from './route-handle';

/**
 * THE route table (brief §2): every screen once, with its address (config/paths.ts), the layout
 * it opens in, its guard and its handle; `createRoutes` nests them under their layouts. Every
 * screen is loaded on demand but the landing one: sign-in and its layout come with the first load,
 * so the page most first visits open needs no second round of requests (docs/benchmarks.md, first
 * load). Handles carry the title, the roles that may open a route and its nav entry, so guards and
 * navigation derive from here.
 */

const ADMIN = ['admin'] as const; // a superAdmin counts as an admin (lib/authorization.ts)
/** What only a portal's admins may do (a superAdmin's own permissions name no portal). */
const ADMIN_ONLY_PERMISSIONS = ROLE_PERMISSIONS.admin.filter((p) => !ROLE_PERMISSIONS.user.includes(p));
const PLATFORM = ['superAdmin'] as const; // platform staff only

/** The frames screens open in; `createRoutes` says what each one is. */
type LayoutName = 'public' | 'auth' | 'blank' | 'app' | 'sync' | 'user' | 'print' | 'shop';

/** A screen in the route table. `lazy` loads its code on demand; `Component` comes with the first load. */
interface ScreenRoute {
  path: ScreenPath;
  layout: LayoutName;
  handle?: RouteHandle;
  loader?: LoaderFunction;
  lazy?: AppRouteObject['lazy'];
  Component?: AppRouteObject['Component'];
}

/**
 * Whether the person may make an admin screen's reads: at once when the permission list the last
 * session answer stored for this token says they administer a portal (brief §3: every GET auth
 * answer replaces it; signing in or out clears it), else once the session has answered.
 */
function mayReadPortal(): Promise<boolean> {
  if (storage.getPermissions().some((p) => ADMIN_ONLY_PERMISSIONS.includes(p))) return Promise.resolve(true);
  return queryClient
    .ensureQueryData(sessionQueryOptions())
    .then((session) => hasRequiredRole(session.roles, ADMIN) && session.portal !== null);
}

/**
 * A loader that starts an admin screen's first reads (its feature's `ScreenReads`) while the
 * screen's code still loads, instead of once that code has loaded and rendered (a bookmarked lock,
 * or an admin's first load after sign-in), and beside the session call rather than after it. It
 * waits for nothing: the layout's guard (the session query) decides what the person sees, and the
 * server what they may read.
 */
const startReads =
  (load: () => Promise<ScreenReads>): LoaderFunction =>
  ({ params, request }) => {
    if (!isSignedIn()) return null;
    void Promise.all([mayReadPortal(), load()])
      .then(([allowed, reads]) => {
        if (allowed) reads(queryClient, { params, url: new URL(request.url) });
      })
      .catch(() => {
        // A session that cannot be read is the guard's to handle; the screen asks again itself.
      });
    return null;
  };

/**
 * /sync/user for a basic user: their own credentials in their own area's frame (/user/sync), not
 * the admin frame with no way back to their locks. Admins stay: they choose the person there.
 */
const basicUserToOwnSync: LoaderFunction = async () => {
  // Signed out: the layout's guard sends them to sign in.
  if (!isSignedIn()) return null;
  const session = await queryClient.ensureQueryData(sessionQueryOptions()).catch(() => null);
  if (session && !hasRequiredRole(session.roles, ADMIN)) return redirect(paths.user.sync.href());
  return null;
};

/** An address that only forwards to `to`. */
const forwardTo = (to: ScreenPath) => ({ loader: () => redirect(to.href()), Component: PendingPage });

const settingsScreen = () => ({
  Component: async () => (await import('@/features/profile/components/settings-page')).SettingsPage,
});
const userSyncScreen = () => ({
  Component: async () => (await import('@/features/sync/components/user-sync-page')).UserSyncPage,
});
const rentalCenterScreen = () => ({
  Component: async () =>
    (await import('@/features/rental-center/components/rental-center-page')).RentalCenterPage,
});

/**
 * Every screen, once; within a layout in the order of its navigation. A fresh table per router:
 * React Router empties a `lazy` object once it has loaded it, so no two routers may share one.
 */
function screenRoutes(): ScreenRoute[] {
  return [
    // Public, under the root.
    {
      path: paths.root,
      layout: 'public',
      handle: { title: 'Sign in' },
      loader: redirectIfSignedIn,
      Component: LoginPage,
    },
    {
      path: paths.signup,
      layout: 'public',
      handle: { title: 'Create your account' },
      loader: redirectIfSignedIn,
      lazy: {
        Component: async () => (await import('@/features/auth/components/signup-page')).SignupPage,
      },
    },
    {
      path: paths.resellerSignup,
      layout: 'public',
      handle: { title: 'Become a reseller' },
      lazy: {
        Component: async () =>
          (await import('@/features/resellers/components/reseller-signup-page')).ResellerSignupPage,
        loader: async () =>
          (await import('@/features/resellers/components/reseller-signup-page')).resellerSignupLoader,
      },
    },

    // Signing in and out.
    { path: paths.auth.home, layout: 'auth', ...forwardTo(paths.auth.login) },
    {
      path: paths.auth.login,
      layout: 'auth',
      handle: { title: 'Sign in' },
      loader: redirectIfSignedIn,
      Component: LoginPage,
    },
    {
      path: paths.auth.logout,
      layout: 'auth',
      handle: { title: 'Signing out' },
      Component: PendingPage,
      loader: async () => {
        await signOut();
        return redirect(paths.root.href());
      },
    },
    {
      path: paths.auth.landing,
      layout: 'auth',
      handle: { title: 'Signing in' },
      Component: PendingPage,
      loader: landingLoader,
    },
    {
      path: paths.auth.forgot,
      layout: 'auth',
      handle: { title: 'Forgot your password' },
      lazy: {
        Component: async () =>
          (await import('@/features/auth/components/forgot-password-page')).ForgotPasswordPage,
      },
    },
    {
      path: paths.auth.reset,
      layout: 'auth',
      handle: { title: 'Choose a new password' },
      lazy: {
        Component: async () =>
          (await import('@/features/auth/components/reset-password-page')).ResetPasswordPage,
      },
    },

    // Mail links and the steps between sign-in and the app: no navigation around them.
    {
      path: paths.verify,
      layout: 'blank',
      handle: { title: 'Confirm your email' },
      lazy: {
        Component: async () => (await import('@/features/auth/components/verify-email-page')).VerifyEmailPage,
      },
    },
    {
      path: paths.mustActivate,
      layout: 'blank',
      handle: { title: 'Confirm your email' },
      loader: requireSession,
      lazy: {
        Component: async () =>
          (await import('@/features/auth/components/must-activate-page')).MustActivatePage,
      },
    },
    {
      path: paths.legacyReset,
      layout: 'blank',
      handle: { title: 'Choose a new password' },
      lazy: {
        Component: async () =>
          (await import('@/features/auth/components/reset-password-page')).LegacyResetPage,
      },
    },
    {
      path: paths.invite,
      layout: 'blank',
      handle: { title: 'Invitation' },
      lazy: {
        Component: async () =>
          (await import('@/features/invitations/components/invitation-page')).InvitationPage,
      },
    },
    {
      path: paths.space,
      layout: 'blank',
      handle: { title: 'Invitation' },
      loader: requireSession,
      lazy: {
        Component: async () =>
          (await import('@/features/invitations/components/space-invitation-page')).SpaceInvitationPage,
      },
    },
    // Share-lock pages for guests and visitors (no sign-in): a share link's landing, a request page.
    {
      path: paths.shareLock.landing,
      layout: 'blank',
      handle: { title: 'Your stay' },
      lazy: {
        Component: async () => (await import('@/features/share-lock/components/landing-page')).LandingPage,
      },
    },
    {
      path: paths.shareLock.request,
      layout: 'blank',
      handle: { title: 'Request a stay' },
      lazy: {
        Component: async () => (await import('@/features/share-lock/components/request-page')).RequestPage,
      },
    },
    // The link mailed to a stay's address: its owner chooses a password (issue 16 defect 1).
    {
      path: paths.shareLock.account,
      layout: 'blank',
      handle: { title: 'Keep your stay' },
      lazy: {
        Component: async () =>
          (await import('@/features/share-lock/components/guest-account-page')).GuestAccountPage,
      },
    },
    {
      path: paths.review,
      layout: 'blank',
      handle: { title: 'Review your stay' },
      lazy: {
        Component: async () => (await import('@/features/share-lock/components/review-page')).ReviewPage,
      },
    },
    // The brief's API test page: checks the API from the browser; anyone may open it.
    {
      path: paths.testApi,
      layout: 'blank',
      handle: { title: 'API test page' },
      lazy: {
        Component: async () => (await import('@/features/dev-tools/components/api-test-page')).ApiTestPage,
      },
    },

    // Content pages (issue 20, item 6): terms, privacy, imprint and help topics, for anyone.
    {
      path: paths.info,
      layout: 'blank',
      handle: { title: 'Information', wide: true },
      lazy: {
        Component: async () => (await import('@/features/content/components/info-page')).InfoPage,
      },
    },

    // The portal's screens, in the order of the admin navigation.
    { path: paths.app.home, layout: 'app', ...forwardTo(paths.app.dashboard) },
    {
      // Any signed-in person: their reseller account, or a way to open one. The reseller host (brief
      // §1 system types) shows it first in the navigation and lands there.
      path: paths.app.reseller,
      layout: 'app',
      handle: {
        title: 'Reseller',
        // First in the navigation on the reseller host; elsewhere beside billing, for resellers.
        nav:
          getSystemType() === 'reseller'
            ? { label: 'Reseller', icon: IconBuildingStore }
            : { label: 'Reseller', icon: IconBuildingStore, group: 'billing', resellersOnly: true },
      },
      lazy: {
        Component: async () => (await import('@/features/resellers/components/reseller-page')).ResellerPage,
      },
    },
    {
      // Any signed-in person, and where one who acts in no portal lands (lib/authorization.ts).
      path: paths.app.empty,
      layout: 'app',
      handle: { title: 'Get started' },
      lazy: {
        Component: async () => (await import('@/features/get-started/components/empty-page')).EmptyPage,
      },
    },
    {
      path: paths.app.dashboard,
      layout: 'app',
      handle: {
        title: 'Dashboard',
        roles: ADMIN,
        requiresPortal: true,
        nav: { label: 'Dashboard', icon: IconLayoutDashboard },
      },
      loader: startReads(
        async () => (await import('@/features/dashboard/api/prefetch-dashboard')).prefetchDashboard,
      ),
      lazy: {
        Component: async () => (await import('@/features/dashboard/components/dashboard-page')).DashboardPage,
      },
    },
    {
      path: paths.app.activity,
      layout: 'app',
      handle: {
        title: 'Activity',
        roles: ADMIN,
        requiresPortal: true,
        nav: { label: 'Activity', icon: IconActivity },
      },
      lazy: {
        Component: async () => (await import('@/features/activity/components/activity-page')).ActivityPage,
      },
    },
    {
      path: paths.app.reports,
      layout: 'app',
      handle: {
        feature: 'reports',
        title: 'Reports',
        roles: ADMIN,
        requiresPortal: true,
        nav: { label: 'Reports', icon: IconReportAnalytics },
      },
      lazy: {
        Component: async () => (await import('@/features/reports/components/reports-page')).ReportsPage,
      },
    },
    {
      path: paths.app.devices,
      layout: 'app',
      handle: {
        title: 'Locks',
        roles: ADMIN,
        requiresPortal: true,
        nav: { label: 'Locks', icon: IconLock, group: 'locks' },
      },
      lazy: {
        Component: async () => (await import('@/features/devices/components/devices-page')).DevicesPage,
      },
    },
    {
      path: paths.app.device,
      layout: 'app',
      handle: { title: 'Lock', roles: ADMIN, requiresPortal: true },
      loader: startReads(
        async () => (await import('@/features/devices/api/prefetch-device-page')).prefetchDevicePage,
      ),
      lazy: {
        Component: async () => (await import('@/features/devices/components/device-page')).DevicePage,
      },
    },
    {
      path: paths.app.offline,
      layout: 'app',
      handle: {
        title: 'Offline locks',
        roles: ADMIN,
        requiresPortal: true,
        nav: { label: 'Offline locks', icon: IconWifiOff, group: 'locks' },
      },
      lazy: {
        Component: async () =>
          (await import('@/features/devices/components/offline-devices-page')).OfflineDevicesPage,
      },
    },
    {
      path: paths.app.alerts,
      layout: 'app',
      handle: {
        title: 'Alerts',
        roles: ADMIN,
        requiresPortal: true,
        nav: { label: 'Alerts', icon: IconBell, group: 'locks' },
      },
      lazy: {
        Component: async () => (await import('@/features/alerts/components/alerts-page')).AlertsPage,
      },
    },
    {
      path: paths.app.members,
      layout: 'app',
      handle: {
        title: 'People',
        roles: ADMIN,
        requiresPortal: true,
        nav: { label: 'People', icon: IconUsers, group: 'people' },
      },
      lazy: {
        Component: async () => (await import('@/features/members/components/members-page')).MembersPage,
      },
    },
    {
      path: paths.app.member,
      layout: 'app',
      handle: { title: 'Person', roles: ADMIN, requiresPortal: true },
      lazy: {
        Component: async () => (await import('@/features/members/components/member-page')).MemberPage,
      },
    },
    {
      path: paths.app.groups,
      layout: 'app',
      handle: {
        title: 'Groups',
        roles: ADMIN,
        requiresPortal: true,
        nav: { label: 'Groups', icon: IconUsersGroup, group: 'people' },
      },
      lazy: {
        Component: async () => (await import('@/features/groups/components/groups-page')).GroupsPage,
      },
    },
    {
      path: paths.app.group,
      layout: 'app',
      handle: { title: 'Group', roles: ADMIN, requiresPortal: true },
      lazy: {
        Component: async () => (await import('@/features/groups/components/group-page')).GroupPage,
      },
    },
    {
      path: paths.app.cards,
      layout: 'app',
      handle: {
        title: 'Cards',
        roles: ADMIN,
        requiresPortal: true,
        nav: { label: 'Cards', icon: IconId, group: 'people' },
      },
      lazy: {
        Component: async () => (await import('@/features/cards/components/cards-page')).CardsPage,
      },
    },
    {
      path: paths.app.readers,
      layout: 'app',
      handle: {
        title: 'Desk readers',
        roles: ADMIN,
        requiresPortal: true,
      },
      lazy: {
        Component: async () => (await import('@/features/readers/components/readers-page')).ReadersPage,
      },
    },
    {
      path: paths.app.zones,
      layout: 'app',
      handle: {
        title: 'Zones',
        roles: ADMIN,
        requiresPortal: true,
        nav: { label: 'Zones', icon: IconBuildingCommunity, group: 'locks' },
      },
      lazy: {
        Component: async () => (await import('@/features/zones/components/zones-page')).ZonesPage,
      },
    },
    {
      path: paths.app.zone,
      layout: 'app',
      handle: { title: 'Zone', roles: ADMIN, requiresPortal: true },
      lazy: {
        Component: async () => (await import('@/features/zones/components/zone-page')).ZonePage,
      },
    },
    {
      path: paths.app.lockouts,
      layout: 'app',
      handle: {
        title: 'Lockouts',
        roles: ADMIN,
        requiresPortal: true,
        nav: { label: 'Lockouts', icon: IconLockCancel, group: 'locks' },
      },
      lazy: {
        Component: async () => (await import('@/features/lockouts/components/lockouts-page')).LockoutsPage,
      },
    },
    {
      path: paths.app.lockout,
      layout: 'app',
      handle: { title: 'Lockout', roles: ADMIN, requiresPortal: true },
      lazy: {
        Component: async () => (await import('@/features/lockouts/components/lockout-page')).LockoutPage,
      },
    },
    {
      path: paths.app.lockoutEdit,
      layout: 'app',
      handle: { title: 'Edit lockout', roles: ADMIN, requiresPortal: true },
      lazy: {
        Component: async () =>
          (await import('@/features/lockouts/components/lockout-edit-page')).LockoutEditPage,
      },
    },
    {
      path: paths.app.keys,
      layout: 'app',
      handle: {
        title: 'Keys',
        roles: ADMIN,
        requiresPortal: true,
        nav: { label: 'Keys', icon: IconKey, group: 'locks' },
      },
      lazy: {
        Component: async () => (await import('@/features/keys/components/keys-page')).KeysPage,
      },
    },
    {
      path: paths.app.key,
      layout: 'app',
      handle: { title: 'Key', roles: ADMIN, requiresPortal: true },
      lazy: {
        Component: async () => (await import('@/features/keys/components/key-page')).KeyPage,
      },
    },
    {
      path: paths.app.companyCodes,
      layout: 'app',
      handle: {
        title: 'Company codes',
        roles: ADMIN,
        requiresPortal: true,
        nav: { label: 'Company codes', icon: IconDialpad, group: 'locks' },
      },
      lazy: {
        Component: async () =>
          (await import('@/features/company-codes/components/company-codes-page')).CompanyCodesPage,
      },
    },
    {
      path: paths.app.companyCodeNew,
      layout: 'app',
      handle: { title: 'New company code', roles: ADMIN, requiresPortal: true },
      lazy: {
        Component: async () =>
          (await import('@/features/company-codes/components/company-code-new-page')).CompanyCodeNewPage,
      },
    },
    {
      path: paths.app.fingerprint,
      layout: 'app',
      handle: { title: 'Fingerprint', roles: ADMIN, requiresPortal: true },
      lazy: {
        Component: async () =>
          (await import('@/features/fingerprints/components/fingerprint-page')).FingerprintPage,
      },
    },
    // Rentals (issue 12): listings, their requests, the rental center.
    {
      path: paths.app.listings,
      layout: 'app',
      handle: {
        feature: 'rentals',
        title: 'Listings',
        roles: ADMIN,
        requiresPortal: true,
        // The requests waiting for an answer (issue 19, item 3), counted on the menu item.
        nav: { label: 'Listings', icon: IconHome, group: 'rentals', badge: ListingsInboxBadge },
      },
      lazy: {
        Component: async () => (await import('@/features/listings/components/listings-page')).ListingsPage,
      },
    },
    {
      path: paths.app.listing,
      layout: 'app',
      handle: { feature: 'rentals', title: 'Listing', roles: ADMIN, requiresPortal: true },
      loader: startReads(
        async () => (await import('@/features/listings/api/prefetch-listing-page')).prefetchListingPage,
      ),
      lazy: {
        Component: async () => (await import('@/features/listings/components/listing-page')).ListingPage,
      },
    },
    {
      path: paths.app.listingEdit,
      layout: 'app',
      handle: { feature: 'rentals', title: 'Edit listing', roles: ADMIN, requiresPortal: true },
      lazy: {
        Component: async () =>
          (await import('@/features/listings/components/listing-edit-page')).ListingEditPage,
      },
    },
    {
      path: paths.app.stay,
      layout: 'app',
      handle: { feature: 'rentals', title: 'Request', roles: ADMIN, requiresPortal: true },
      lazy: {
        Component: async () => (await import('@/features/listings/components/stay-page')).StayPage,
      },
    },
    {
      // Anyone signed in: what they host here (admins every listing, members theirs) and their own stays.
      path: paths.app.rentalCenter,
      layout: 'app',
      handle: {
        feature: 'rentals',
        title: 'Rental center',
        nav: { label: 'Rental center', icon: IconCalendarEvent, group: 'rentals' },
      },
      lazy: rentalCenterScreen(),
    },
    {
      // Anyone signed in (the brief's `review`): stays to review, reviews written, a host's reviews.
      path: paths.app.myReviews,
      layout: 'app',
      handle: { title: 'Reviews', nav: { label: 'Reviews', icon: IconStar, group: 'rentals' } },
      lazy: {
        Component: async () => (await import('@/features/reviews/components/my-reviews-page')).MyReviewsPage,
      },
    },
    // Settings first in its section: on a laptop's screen it stays above the fold however long the
    // menu above it grows (e2e/where-things-are.spec.ts).
    {
      path: paths.app.settings,
      layout: 'app',
      handle: { title: 'Settings', nav: { label: 'Settings', icon: IconSettings, group: 'settings' } },
      lazy: settingsScreen(),
    },
    {
      // API keys (issue 21, item 1), linked from the settings screen.
      path: paths.app.apiKeys,
      layout: 'app',
      handle: { title: 'API keys', roles: ADMIN, requiresPortal: true },
      lazy: {
        Component: async () => (await import('@/features/api-keys/components/api-keys-page')).ApiKeysPage,
      },
    },
    {
      // Outgoing webhooks (issue 21, item 2), linked from the settings screen.
      path: paths.app.webhooks,
      layout: 'app',
      handle: { title: 'Webhooks', roles: ADMIN, requiresPortal: true },
      lazy: {
        Component: async () => (await import('@/features/webhooks/components/webhooks-page')).WebhooksPage,
      },
    },
    {
      path: paths.app.changeLog,
      layout: 'app',
      handle: {
        title: 'Change log',
        roles: ADMIN,
        requiresPortal: true,
        nav: { label: 'Change log', icon: IconHistory, group: 'settings' },
      },
      lazy: {
        Component: async () => (await import('@/features/audit/components/change-log-page')).ChangeLogPage,
      },
    },
    {
      path: paths.app.about,
      layout: 'app',
      handle: {
        title: 'About',
        roles: ADMIN,
        requiresPortal: true,
      },
      lazy: {
        Component: async () => (await import('@/features/about/components/about-page')).AboutPage,
      },
    },
    {
      // Any signed-in person (brief §6): an admin the portal's billing, anyone else their purchases.
      path: paths.app.billing,
      layout: 'app',
      handle: { title: 'Billing', nav: { label: 'Billing', icon: IconReceipt, group: 'billing' } },
      lazy: {
        Component: async () => (await import('./billing-screen')).BillingScreen,
      },
    },
    {
      path: paths.app.monthBill,
      layout: 'app',
      handle: { title: 'Bill', roles: ADMIN, requiresPortal: true },
      lazy: {
        Component: async () => (await import('@/features/billing/components/month-bill-page')).MonthBillPage,
      },
    },
    // Commerce (issue 13): plans (admins act on the portal's plan), the shop, orders, staff payments.
    {
      path: paths.app.upgrade,
      layout: 'app',
      handle: {
        title: 'Plan and payment',
        roles: ADMIN,
        requiresPortal: true,
        nav: { label: 'Plan', icon: IconRocket, group: 'billing' },
      },
      lazy: {
        Component: async () => (await import('@/features/plans/components/plan-pages')).UpgradePage,
      },
    },
    {
      path: paths.app.goPro,
      layout: 'app',
      handle: { title: 'Go Pro', roles: ADMIN, requiresPortal: true },
      lazy: {
        Component: async () => (await import('@/features/plans/components/plan-pages')).GoProPage,
      },
    },
    {
      path: paths.app.upgradeLegacy,
      layout: 'app',
      handle: { title: 'Pay for a period', roles: ADMIN, requiresPortal: true },
      lazy: {
        Component: async () => (await import('@/features/plans/components/plan-pages')).UpgradeLegacyPage,
      },
    },
    {
      path: paths.app.products,
      layout: 'app',
      handle: {
        feature: 'shop',
        title: 'Shop',
        nav: { label: 'Shop', icon: IconShoppingBag, group: 'billing' },
      },
      lazy: {
        Component: async () => (await import('@/features/shop/components/product-list-page')).AppProductsPage,
      },
    },
    // The brief names the signed-in list both `product` and `products`: one screen, the other forwards.
    { path: paths.app.productsAlias, layout: 'app', ...forwardTo(paths.app.products) },
    {
      path: paths.app.product,
      layout: 'app',
      handle: { feature: 'shop', title: 'Product' },
      lazy: {
        Component: async () => (await import('@/features/shop/components/product-page')).AppProductPage,
      },
    },
    {
      path: paths.app.orders,
      layout: 'app',
      handle: { feature: 'shop', title: 'Your orders' },
      lazy: {
        Component: async () => (await import('@/features/shop/components/my-orders-page')).MyOrdersPage,
      },
    },
    {
      // The signed-in person's own QR code in the app frame (the brief's `qr`), as /user/qr shows it.
      path: paths.app.qr,
      layout: 'app',
      handle: { title: 'QR code', requiresPortal: true },
      lazy: {
        Component: async () => (await import('@/features/my-access/components/qr-page')).QrPage,
      },
    },
    {
      // People asking for a lock (issue 21, the `accessRequest` collection).
      path: paths.app.accessRequests,
      layout: 'app',
      handle: {
        title: 'Access requests',
        roles: ADMIN,
        requiresPortal: true,
        nav: { label: 'Access requests', icon: IconHandStop, group: 'people' },
      },
      lazy: {
        Component: async () =>
          (await import('@/features/access-requests/components/access-requests-page')).AccessRequestsPage,
      },
    },
    // The platform console (issue 20, item 1): platform staff's home, where the admin host lands.
    {
      path: paths.app.platform,
      layout: 'app',
      handle: {
        title: 'Platform console',
        roles: PLATFORM,
        nav: { label: 'Console', icon: IconBuildingSkyscraper, group: 'platform' },
      },
      lazy: {
        Component: async () =>
          (await import('@/features/platform/components/platform-home-page')).PlatformHomePage,
      },
    },
    {
      path: paths.app.platformPortal,
      layout: 'app',
      handle: { title: 'Portal', roles: PLATFORM },
      lazy: {
        Component: async () =>
          (await import('@/features/platform/components/platform-portal-page')).PlatformPortalPage,
      },
    },
    {
      path: paths.app.platformFeatures,
      layout: 'app',
      handle: {
        title: 'Features',
        roles: PLATFORM,
        nav: { label: 'Features', icon: IconToggleRight, group: 'platform' },
      },
      lazy: {
        Component: async () =>
          (await import('@/features/platform/components/platform-features-page')).PlatformFeaturesPage,
      },
    },
    {
      path: paths.app.platformWork,
      layout: 'app',
      handle: {
        title: 'Background work',
        roles: PLATFORM,
        nav: { label: 'Background work', icon: IconActivityHeartbeat, group: 'platform' },
      },
      lazy: {
        Component: async () =>
          (await import('@/features/platform/components/platform-work-page')).PlatformWorkPage,
      },
    },
    // Developer tools (issue 20, item 3): one nav entry, the index; the console, payments and the
    // dev mailbox open from there.
    {
      path: paths.app.devTools,
      layout: 'app',
      handle: {
        title: 'Developer tools',
        roles: PLATFORM,
        nav: { label: 'Developer tools', icon: IconTool, group: 'platform' },
      },
      lazy: {
        Component: async () => (await import('@/features/dev-tools/components/dev-tools-page')).DevToolsPage,
      },
    },
    {
      path: paths.app.devToolsApi,
      layout: 'app',
      handle: { title: 'API console', roles: PLATFORM },
      lazy: {
        Component: async () =>
          (await import('@/features/dev-tools/components/api-console-page')).ApiConsolePage,
      },
    },
    {
      path: paths.app.staffPayments,
      layout: 'app',
      handle: {
        title: 'Payments',
        roles: PLATFORM,
      },
      lazy: {
        Component: async () =>
          (await import('@/features/staff-payments/components/staff-payments-page')).StaffPaymentsPage,
      },
    },
    {
      path: paths.app.devMailbox,
      layout: 'app',
      handle: {
        title: 'Dev mailbox',
        roles: PLATFORM,
      },
      lazy: {
        Component: async () =>
          (await import('@/features/dev-mailbox/components/dev-mailbox-page')).DevMailboxPage,
      },
    },
    // Help & support (issue 20, item 4): any signed-in person files and follows their requests;
    // platform staff answer them in the inbox.
    {
      path: paths.app.support,
      layout: 'app',
      // Reached from the user menu's "Help & support" (with the screen the person was on) and from Help.
      handle: { title: 'Help & support' },
      lazy: {
        Component: async () => (await import('@/features/support/components/support-page')).SupportPage,
      },
    },
    {
      path: paths.app.supportType,
      layout: 'app',
      handle: { title: 'New support request' },
      lazy: {
        Component: async () =>
          (await import('@/features/support/components/support-form-page')).SupportFormPage,
      },
    },
    {
      path: paths.app.supportRequest,
      layout: 'app',
      handle: { title: 'Support request' },
      lazy: {
        Component: async () =>
          (await import('@/features/support/components/support-request-page')).SupportRequestPage,
      },
    },
    {
      path: paths.app.platformSupport,
      layout: 'app',
      handle: {
        title: 'Support inbox',
        roles: PLATFORM,
        nav: { label: 'Support inbox', icon: IconLifebuoy, group: 'platform' },
      },
      lazy: {
        Component: async () =>
          (await import('@/features/support/components/staff-support-page')).StaffSupportPage,
      },
    },
    {
      // The web app's uncaught errors, one row per fingerprint (issue 21, the `error` collection).
      path: paths.app.platformErrors,
      layout: 'app',
      handle: {
        title: 'Client errors',
        roles: PLATFORM,
        nav: { label: 'Client errors', icon: IconBug, group: 'platform' },
      },
      lazy: {
        Component: async () =>
          (await import('@/features/client-errors/components/client-errors-page')).ClientErrorsPage,
      },
    },
    {
      // Any signed-in person: the help topics and the legal pages.
      path: paths.app.help,
      layout: 'app',
      handle: {
        title: 'Help',
        // Support requests (/app/support and its pages) are the other half of Help & support.
        nav: {
          label: 'Help & support',
          icon: IconHelp,
          group: 'settings',
          alsoCurrentOn: [paths.app.support.pattern],
        },
      },
      lazy: {
        Component: async () => (await import('@/features/content/components/app-help-page')).AppHelpPage,
      },
    },
    // The same page under the brief's other names: settingsProfile (a child route of /app in the
    // brief) and profile (the earlier address, in old mails and bookmarks).
    { path: paths.app.settingsProfile, layout: 'app', handle: { title: 'Settings' }, lazy: settingsScreen() },
    { path: paths.app.profile, layout: 'app', handle: { title: 'Settings' }, lazy: settingsScreen() },

    // The brief's sync layout: admin screens about locks' credential sync, in the /app frame.
    { path: paths.sync.home, layout: 'sync', ...forwardTo(paths.sync.center) },
    {
      path: paths.sync.center,
      layout: 'sync',
      handle: {
        title: 'Sync center',
        roles: ADMIN,
        requiresPortal: true,
        nav: { label: 'Sync center', icon: IconRefreshDot, group: 'locks' },
      },
      lazy: {
        Component: async () => (await import('@/features/sync/components/sync-center-page')).SyncCenterPage,
      },
    },
    {
      // Anyone signed in: admins choose the person, a basic user sees their own.
      path: paths.sync.user,
      layout: 'sync',
      handle: { title: 'Credentials on locks', requiresPortal: true },
      loader: basicUserToOwnSync,
      lazy: userSyncScreen(),
    },

    // The basic user's area.
    {
      path: paths.user.home,
      layout: 'user',
      // A portal's locks: someone who acts in no portal is sent to /app/empty (what to do next).
      handle: { title: 'Your locks', requiresPortal: true, nav: { label: 'Locks', icon: IconLock } },
      lazy: {
        Component: async () => (await import('@/features/my-access/components/my-locks-page')).MyLocksPage,
      },
    },
    {
      path: paths.user.lock,
      layout: 'user',
      handle: { title: 'Lock', requiresPortal: true },
      lazy: {
        Component: async () => (await import('@/features/my-access/components/my-lock-page')).MyLockPage,
      },
    },
    {
      path: paths.user.qr,
      layout: 'user',
      handle: { title: 'QR code', requiresPortal: true, nav: { label: 'QR code', icon: IconQrcode } },
      lazy: {
        Component: async () => (await import('@/features/my-access/components/qr-page')).QrPage,
      },
    },
    {
      // Ask an admin for a lock (issue 21, the `accessRequest` collection).
      path: paths.user.accessRequests,
      layout: 'user',
      handle: {
        title: 'Access requests',
        requiresPortal: true,
        nav: { label: 'Access requests', icon: IconHandStop },
      },
      lazy: {
        Component: async () =>
          (await import('@/features/access-requests/components/ask-access-page')).AskAccessPage,
      },
    },
    {
      // The same rental center for people in the /user area: listings they look after, their own stays.
      path: paths.user.rentalCenter,
      layout: 'user',
      handle: { title: 'Rental center', nav: { label: 'Rental center', icon: IconCalendarEvent } },
      lazy: rentalCenterScreen(),
    },
    {
      path: paths.user.sync,
      layout: 'user',
      handle: { title: 'Credentials on locks', requiresPortal: true },
      lazy: userSyncScreen(),
    },
    {
      path: paths.user.help,
      layout: 'user',
      handle: { title: 'Help', nav: { label: 'Help', icon: IconHelp } },
      lazy: {
        Component: async () => (await import('@/features/my-access/components/help-page')).HelpPage,
      },
    },
    {
      path: paths.user.settings,
      layout: 'user',
      handle: { title: 'Settings', nav: { label: 'Settings', icon: IconSettings } },
      lazy: settingsScreen(),
    },

    // The brief's print layout: documents alone on the page, for the browser's print.
    {
      path: paths.print.bill,
      layout: 'print',
      handle: { title: 'Invoice', roles: ADMIN, requiresPortal: true },
      lazy: {
        Component: async () => (await import('@/features/billing/components/print-bill-page')).PrintBillPage,
      },
    },

    // The shop and the pages a payment provider returns to (brief §2 public routes).
    {
      path: paths.shop.products,
      layout: 'shop',
      handle: { title: 'Shop' },
      lazy: {
        Component: async () => (await import('@/features/shop/components/product-list-page')).ProductListPage,
      },
    },
    {
      path: paths.shop.product,
      layout: 'shop',
      handle: { title: 'Product' },
      lazy: {
        Component: async () => (await import('@/features/shop/components/product-page')).ProductPage,
      },
    },
    {
      path: paths.shop.cart,
      layout: 'shop',
      handle: { title: 'Cart' },
      lazy: { Component: async () => (await import('@/features/shop/components/cart-page')).CartPage },
    },
    {
      path: paths.shop.address,
      layout: 'shop',
      handle: { title: 'Delivery address' },
      lazy: {
        Component: async () => (await import('@/features/shop/components/address-page')).AddressPage,
      },
    },
    {
      path: paths.shop.shipping,
      layout: 'shop',
      handle: { title: 'Shipping' },
      lazy: {
        Component: async () => (await import('@/features/shop/components/shipping-page')).ShippingPage,
      },
    },
    {
      path: paths.shop.success,
      layout: 'shop',
      handle: { title: 'Payment' },
      lazy: {
        Component: async () => (await import('@/features/checkout/components/success-page')).SuccessPage,
      },
    },
    {
      path: paths.shop.canceled,
      layout: 'shop',
      handle: { title: 'Payment canceled' },
      lazy: {
        Component: async () => (await import('@/features/checkout/components/canceled-page')).CanceledPage,
      },
    },
    {
      path: paths.shop.gotoApp,
      layout: 'shop',
      handle: { title: 'Manage your hardware' },
      lazy: {
        Component: async () => (await import('@/features/checkout/components/goto-app-page')).GotoAppPage,
      },
    },
  ];
}

/** Where each layout sits: its screens' addresses start with it. */
const LAYOUT_BASES: Record<LayoutName, string> = {
  public: paths.root.pattern,
  auth: paths.auth.home.pattern,
  blank: paths.root.pattern,
  app: paths.app.home.pattern,
  sync: paths.sync.home.pattern,
  user: paths.user.home.pattern,
  print: '/print',
  shop: paths.root.pattern,
};

/** A screen as a child of its layout's route: the path relative to it (the layout's own address is its index). */
function childRoute({ path, layout, ...route }: ScreenRoute): AppRouteObject {
  const base = LAYOUT_BASES[layout];
  if (!path.pattern.startsWith(base)) {
    throw new Error(`${path.pattern} is not under the ${layout} layout (${base})`);
  }
  const relative = path.pattern.slice(base.length).replace(/^\//, '');
  return relative ? { path: relative, ...route } : { index: true, ...route };
}

/** The route table as React Router nests it, screens under their layouts; a fresh copy per router. */
export function createRoutes(): AppRouteObject[] {
  const screens = screenRoutes();
  const screensOf = (layout: LayoutName) => screens.filter((screen) => screen.layout === layout);
  /** A layout's route, its path relative to the root, with its screens as children. */
  const layoutRoute = (
    layout: LayoutName,
    route: NonIndexRouteObject & { handle?: RouteHandle },
    extraChildren: AppRouteObject[] = [],
  ): AppRouteObject => {
    const path = LAYOUT_BASES[layout].slice(1);
    const children = [...screensOf(layout).map(childRoute), ...extraChildren];
    return { ...(path ? { path } : {}), ...route, children };
  };
  /** A signed-in area's own unknown addresses: the not-found inside its frame, the menu kept. */
  const notFoundInFrame = (): AppRouteObject => ({
    path: '*',
    handle: { title: 'Page not found' },
    lazy: { Component: async () => (await import('./layouts/not-found')).InFrameNotFoundPage },
  });
  // The admin navigation lists the /app screens and the sync center (before Settings), in both layouts.
  const appNav = navItemsFrom(screensOf('app'));
  const settingsAt = appNav.findIndex((item) => item.to === paths.app.settings.pattern);
  const adminNav = [
    ...appNav.slice(0, settingsAt),
    ...navItemsFrom(screensOf('sync')),
    ...appNav.slice(settingsAt),
  ];
  return [
    {
      id: 'root',
      path: paths.root.pattern,
      Component: RootLayout,
      ErrorBoundary: RouteError,
      HydrateFallback: () => null,
      children: [
        layoutRoute('public', { Component: PublicLayout }),
        layoutRoute('auth', { Component: PublicLayout }),
        layoutRoute('blank', {
          lazy: { Component: async () => (await import('./layouts/blank-layout')).BlankLayout },
        }),
        layoutRoute(
          'app',
          {
            loader: requireSession,
            handle: { navItems: adminNav },
            lazy: { Component: async () => (await import('./layouts/app-layout')).AppLayout },
          },
          [notFoundInFrame()],
        ),
        layoutRoute(
          'sync',
          {
            loader: requireSession,
            handle: { navItems: adminNav },
            lazy: { Component: async () => (await import('./layouts/app-layout')).AppLayout },
          },
          [notFoundInFrame()],
        ),
        layoutRoute(
          'user',
          {
            loader: requireSession,
            handle: { navItems: navItemsFrom(screensOf('user')) },
            lazy: { Component: async () => (await import('./layouts/user-layout')).UserLayout },
          },
          [notFoundInFrame()],
        ),
        layoutRoute('print', {
          loader: requireSession,
          lazy: { Component: async () => (await import('./layouts/print-layout')).PrintLayout },
        }),
        layoutRoute('shop', {
          lazy: { Component: async () => (await import('./layouts/shop-layout')).ShopLayout },
        }),
        {
          // Any other address.
          path: '*',
          handle: { title: 'Page not found' },
          lazy: { Component: async () => (await import('./layouts/not-found')).NotFoundPage },
        },
      ],
    },
  ];
}

export function createAppRouter() {
  return createBrowserRouter(createRoutes());
}

export type AppRouter = ReturnType<typeof createAppRouter>;
