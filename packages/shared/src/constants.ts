/** Business constants of the product brief §9, shared by server and web. */

/** Default base path of every API call. */
export const API_BASE_PATH = '/api3';

/** Header every web request carries, with its value. */
export const CLIENT_VERSION_HEADER = 'version';
export const CLIENT_VERSION = 'web';

/** Header naming another portal the signed-in person acts in. */
export const PORTAL_OVERRIDE_HEADER = 'x-portal-override';

/** Lifetime of the web client's response cache (0 on localhost). */
export const RESPONSE_CACHE_MS = 1000;

/** Sealed payloads: nonce length (characters = bytes) and scheme version marker. */
export const SEAL_NONCE_LENGTH = 24;
export const SEAL_SCHEME_VERSION = 2 as const;
/** How far an envelope's nonce (a timestamp) may be from the server's clock. */
export const SEAL_MAX_CLOCK_SKEW_MS = 5 * 60 * 1000;

/** Local-storage keys of the web client. */
export const STORAGE_KEYS = {
  authToken: 'authToken',
  permissions: 'permissions',
  cart: 'cart',
  cms: 'cms',
  userData: 'userData',
  portal: 'portal',
  portalContext: 'portalContext',
} as const;

/** Default text colours. */
export const COLORS = {
  dark: '#222222',
  light: '#FAFAF9',
  primary: '#3F5B68',
} as const;

/** How long a notification stays on screen. */
export const NOTIFICATION_TIMEOUT_MS = 5000;

/** Layout breakpoints in pixels. */
export const BREAKPOINTS_PX = [600, 1024, 1440, 1920] as const;

export const LOCALE = 'en-US';

/** Password length limits for every password a person chooses. */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
