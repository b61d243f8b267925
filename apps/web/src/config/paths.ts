/**
 * Every screen's address, declared once (bulletproof-react's config/paths.ts): the route table
 * (app/router.tsx) is built from the patterns, and links and redirects are built with `href`, so a
 * screen's URL is written in this file and nowhere else. The URLs are the brief's (§2): they stay
 * exactly as they are, old mails and bookmarks point at them.
 *
 * `href` takes the pattern's `:params` in order (each encoded) and, last and optional, the query:
 * `paths.app.device.href(id, { tab: 'sync' })` → `/app/device/<id>?tab=sync`.
 */

/** The `:params` of a pattern, as the positional values `href` takes for them. */
type ParamValues<Pattern extends string> = Pattern extends `${string}:${string}/${infer Rest}`
  ? [string | number, ...ParamValues<`/${Rest}`>]
  : Pattern extends `${string}:${string}`
    ? [string | number]
    : [];

/** A query string's parameters; undefined ones are left out. */
export type SearchParams = Record<string, string | number | undefined>;

export interface ScreenPath<Pattern extends string = string> {
  /** The route pattern, absolute (`/app/device/:deviceId`). */
  readonly pattern: Pattern;
  /** A concrete address of the screen. */
  readonly href: (...args: [...ParamValues<Pattern>, search?: SearchParams]) => string;
}

function queryOf(search: SearchParams | undefined): string {
  const entries = Object.entries(search ?? {}).flatMap(([name, value]) =>
    value === undefined ? [] : [[name, String(value)]],
  );
  return entries.length ? `?${new URLSearchParams(entries).toString()}` : '';
}

function screenPath<const Pattern extends string>(pattern: Pattern): ScreenPath<Pattern> {
  return {
    pattern,
    href: (...args) => {
      const values: unknown[] = [...args];
      const path = pattern.replace(/:[A-Za-z]+/g, () => encodeURIComponent(String(values.shift())));
      return `${path}${queryOf(values[0] as SearchParams | undefined)}`;
    },
  };
}

export const paths = {
  /** Sign-in (the root the brief mounts the app at). */
  root: screenPath('/'),
  signup: screenPath('/signup'),
  resellerSignup: screenPath('/reseller-signup'),

  auth: {
    /** Forwards to login. */
    home: screenPath('/auth'),
    login: screenPath('/auth/login'),
    logout: screenPath('/auth/logout'),
    /** After sign-in: a `redirect` target, else the person's home (app/guards.ts). */
    landing: screenPath('/auth/landing'),
    forgot: screenPath('/auth/forgot'),
    /** The link in the reset mail: `?token=`. */
    reset: screenPath('/auth/reset'),
  },

  // Mail links and the steps between sign-in and the app (the blank layout).
  verify: screenPath('/verify'),
  mustActivate: screenPath('/must-activate'),
  /** Reset links of the older form, still in people's mailboxes. */
  legacyReset: screenPath('/reset/:resetToken'),
  invite: screenPath('/invite'),
  space: screenPath('/space/:portalId'),
  shareLock: {
    /** A share link's landing: `?t=`. */
    landing: screenPath('/s'),
    request: screenPath('/s/r/:listingId'),
    /** The link mailed to a stay's address: `?token=`. */
    account: screenPath('/s/account'),
  },
  review: screenPath('/review'),
  /** A content page: terms, privacy, imprint, help topics (blank layout, public). */
  info: screenPath('/info/:topic'),
  /** The API test page (blank layout, public): checks the API from the browser. */
  testApi: screenPath('/test/api'),

  app: {
    /** Forwards to the dashboard. */
    home: screenPath('/app'),
    reseller: screenPath('/app/reseller'),
    /** Help topics and the legal pages, for any signed-in person. */
    help: screenPath('/app/help'),
    /** A signed-in person who acts in no portal: what to do next (the brief's `empty`). */
    empty: screenPath('/app/empty'),
    dashboard: screenPath('/app/dashboard'),
    activity: screenPath('/app/activity'),
    /** The brief's deviceanduserreports: reports on screen, as CSV and PDF, and scheduled by mail. */
    reports: screenPath('/app/deviceanduserreports'),
    devices: screenPath('/app/device'),
    device: screenPath('/app/device/:deviceId'),
    offline: screenPath('/app/offline'),
    alerts: screenPath('/app/notificationAndAlert'),
    members: screenPath('/app/user'),
    member: screenPath('/app/user/:userId'),
    groups: screenPath('/app/group'),
    group: screenPath('/app/group/:groupId'),
    cards: screenPath('/app/cards'),
    /** Desk enrollment readers (issue 21, item 5). */
    readers: screenPath('/app/readers'),
    /** Zones (issue 21, item 4): the portal's places and their locks. */
    zones: screenPath('/app/zones'),
    zone: screenPath('/app/zones/:zoneId'),
    lockouts: screenPath('/app/lockout'),
    lockout: screenPath('/app/lockout/:lockoutId'),
    /** `new` as the id creates one. */
    lockoutEdit: screenPath('/app/lockout/edit/:lockoutId'),
    keys: screenPath('/app/keys'),
    key: screenPath('/app/keys/:keyId'),
    companyCodes: screenPath('/app/access-codes'),
    companyCodeNew: screenPath('/app/access-code/new'),
    fingerprint: screenPath('/app/fingerprint/:id'),
    listings: screenPath('/app/listing'),
    listing: screenPath('/app/listing/:listingId'),
    /** `new` as the id creates one. */
    listingEdit: screenPath('/app/listing/edit/:listingId'),
    /** A stay request and its approval. */
    stay: screenPath('/app/listing/:listingId/request/:reqId'),
    rentalCenter: screenPath('/app/rentalcenter'),
    changeLog: screenPath('/app/adminChangeLog'),
    about: screenPath('/app/about'),
    billing: screenPath('/app/billing'),
    monthBill: screenPath('/app/billing/:year/:month'),
    upgrade: screenPath('/app/upgrade'),
    goPro: screenPath('/app/gopro'),
    upgradeLegacy: screenPath('/app/upgradeLegacy'),
    /** The shop inside the app (the brief's `product`); `productsAlias` forwards here. */
    products: screenPath('/app/product'),
    /** The brief's `products`: the same list, under its other name. */
    productsAlias: screenPath('/app/products'),
    product: screenPath('/app/product/:productId'),
    orders: screenPath('/app/orders'),
    /** The signed-in person's own QR code and the locks it opens, in the app frame. */
    qr: screenPath('/app/qr'),
    /** The signed-in person's reviews (the brief's `review`; `review` above is the mailed link's page). */
    myReviews: screenPath('/app/review'),
    /** Platform staff's developer tools: the index, the API console; the mailbox and payments below. */
    devTools: screenPath('/app/devTools'),
    devToolsApi: screenPath('/app/devTools/api'),
    staffPayments: screenPath('/app/devTools/payments'),
    devMailbox: screenPath('/app/devTools/mail'),
    /** Platform staff's console (the admin host's landing): portals and people, a portal, flags, work. */
    platform: screenPath('/app/platform'),
    platformPortal: screenPath('/app/platform/portals/:portalId'),
    platformFeatures: screenPath('/app/platform/features'),
    platformWork: screenPath('/app/platform/work'),
    /** Help & support (issue 20, item 4): a person's requests, `?from=` the screen they came from. */
    support: screenPath('/app/support'),
    /** The form of one type of request (lock, access, billing, account, other). */
    supportType: screenPath('/app/support/:supportType'),
    supportRequest: screenPath('/app/support/request/:requestId'),
    /** Platform staff's support inbox (`?portalId=` one portal's). */
    platformSupport: screenPath('/app/platform/support'),
    /** Platform staff's list of the web app's uncaught errors (issue 21, the `error` collection). */
    platformErrors: screenPath('/app/platform/errors'),
    /** Admins: people asking for a lock (issue 21, the `accessRequest` collection). */
    accessRequests: screenPath('/app/access-requests'),
    settings: screenPath('/app/settings'),
    /** Admins: the portal's API keys (issue 21, item 1), linked from the settings screen. */
    apiKeys: screenPath('/app/settings/api-keys'),
    /** Admins: the portal's outgoing webhooks (issue 21, item 2), linked from the settings screen. */
    webhooks: screenPath('/app/settings/webhooks'),
    /** The settings under the brief's other names: settingsProfile, and profile (old mails). */
    settingsProfile: screenPath('/app/settingsProfile'),
    profile: screenPath('/app/profile'),
  },

  /** The basic user's area. */
  user: {
    /** Their locks. */
    home: screenPath('/user'),
    lock: screenPath('/user/locks/:lockId'),
    qr: screenPath('/user/qr'),
    rentalCenter: screenPath('/user/rentalcenter'),
    help: screenPath('/user/help'),
    settings: screenPath('/user/settingsProfile'),
    /** Their own credentials on each lock, in their own area (/sync/user forwards them here). */
    sync: screenPath('/user/sync'),
    /** Ask an admin for a lock, and see the answers (issue 21). */
    accessRequests: screenPath('/user/access'),
  },

  /** Locks' credential sync, in the /app frame. */
  sync: {
    /** Forwards to the sync center. */
    home: screenPath('/sync'),
    center: screenPath('/sync/center'),
    /** `?userId=` (admins); a basic user sees their own. */
    user: screenPath('/sync/user'),
  },

  print: {
    bill: screenPath('/print/bill/:historyId'),
  },

  /** The public shop and the pages a payment provider returns to. */
  shop: {
    products: screenPath('/product'),
    product: screenPath('/product/:productId'),
    cart: screenPath('/cart'),
    address: screenPath('/address'),
    shipping: screenPath('/pickShipping'),
    success: screenPath('/success'),
    canceled: screenPath('/canceled'),
    gotoApp: screenPath('/goto-app'),
  },
} as const;
