import { isPortalCurrent, portalContextSchema, STORAGE_KEYS, type PortalContext } from '@latchkey/shared';

/**
 * Everything the web client keeps in localStorage (brief §9), behind typed getters and setters.
 * Corrupt values never throw: they read as the documented defaults (brief §8).
 */

export type StorageKey = (typeof STORAGE_KEYS)[keyof typeof STORAGE_KEYS];

/** Who is signed in, as last answered by GET auth. */
export interface UserData {
  email: string;
  firstName: string;
  lastName: string;
  /** The person's own portal, if they own one. */
  portalOwned: string | null;
  /** Portal id → when the person last read its notifications (ms since the epoch). */
  readNotification: Record<string, number>;
}

/** Cart: item key → quantity (always a positive number). */
export type Cart = Record<string, number>;

type Listener = (key: StorageKey) => void;
const listeners = new Set<Listener>();

function notify(key: StorageKey): void {
  for (const listener of listeners) listener(key);
}

function readRaw(key: StorageKey): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    // Storage can be disabled (private modes, policies): behave as if empty.
    return null;
  }
}

function writeRaw(key: StorageKey, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // Quota or disabled storage: the in-memory app state still works for this page load.
  }
  notify(key);
}

function readJson(key: StorageKey): unknown {
  const raw = readRaw(key);
  if (raw === null) return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isCart(value: unknown): value is Cart {
  return (
    isRecord(value) &&
    Object.values(value).every(
      (quantity) => typeof quantity === 'number' && Number.isFinite(quantity) && quantity > 0,
    )
  );
}

function isUserData(value: unknown): value is UserData {
  return (
    isRecord(value) &&
    typeof value.email === 'string' &&
    typeof value.firstName === 'string' &&
    typeof value.lastName === 'string' &&
    (value.portalOwned === null || typeof value.portalOwned === 'string') &&
    isRecord(value.readNotification)
  );
}

/** Recomputes `current` (paid up) whenever a portal context is stored (brief §1). */
function withCurrent(context: PortalContext): PortalContext {
  const current = isPortalCurrent({
    stripeStatus: context.portal.stripe.status,
    expireDate: context.portal.expireDate,
  });
  return { ...context, portal: { ...context.portal, current } };
}

export const storage = {
  getAuthToken(): string | null {
    const token = readRaw(STORAGE_KEYS.authToken);
    return token ? token : null;
  },
  setAuthToken(token: string | null): void {
    writeRaw(STORAGE_KEYS.authToken, token || null);
  },

  /** The permission list; anything but an array of strings reads as []. */
  getPermissions(): string[] {
    const value = readJson(STORAGE_KEYS.permissions);
    return Array.isArray(value) && value.every((item) => typeof item === 'string') ? value : [];
  },
  /** Replaces the whole list (never merges). */
  setPermissions(permissions: readonly string[]): void {
    writeRaw(STORAGE_KEYS.permissions, JSON.stringify([...permissions]));
  },

  /** The cart; anything but a map of positive numbers reads as {}. */
  getCart(): Cart {
    const value = readJson(STORAGE_KEYS.cart);
    return isCart(value) ? { ...value } : {};
  },
  setCart(cart: Cart): void {
    writeRaw(STORAGE_KEYS.cart, JSON.stringify(cart));
  },

  /** Content-management mode; anything but `true` reads as false. */
  getCms(): boolean {
    return readJson(STORAGE_KEYS.cms) === true;
  },
  setCms(enabled: boolean): void {
    writeRaw(STORAGE_KEYS.cms, JSON.stringify(enabled));
  },

  getUserData(): UserData | null {
    const value = readJson(STORAGE_KEYS.userData);
    return isUserData(value) ? value : null;
  },
  setUserData(data: UserData | null): void {
    writeRaw(STORAGE_KEYS.userData, data ? JSON.stringify(data) : null);
  },

  /** The id of the portal selected in the switcher (sent as the override header), if any. */
  getPortal(): string | null {
    const id = readRaw(STORAGE_KEYS.portal);
    return id ? id : null;
  },
  setPortal(portalId: string | null): void {
    writeRaw(STORAGE_KEYS.portal, portalId || null);
  },

  getPortalContext(): PortalContext | null {
    const parsed = portalContextSchema.safeParse(readJson(STORAGE_KEYS.portalContext));
    return parsed.success ? withCurrent(parsed.data) : null;
  },
  setPortalContext(context: PortalContext | null): void {
    writeRaw(STORAGE_KEYS.portalContext, context ? JSON.stringify(withCurrent(context)) : null);
  },

  /** Forgets the signed-in person: token, permissions, user data and the portal override. */
  clearAuth(): void {
    for (const key of [
      STORAGE_KEYS.authToken,
      STORAGE_KEYS.permissions,
      STORAGE_KEYS.userData,
      STORAGE_KEYS.portal,
      STORAGE_KEYS.portalContext,
    ] as const) {
      writeRaw(key, null);
    }
  },

  /** Calls `listener` with the key after every write, in this tab or (via the storage event) another. */
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    const onStorage = (event: StorageEvent) => {
      const key = Object.values(STORAGE_KEYS).find((k) => k === event.key);
      if (key) listener(key);
    };
    window.addEventListener('storage', onStorage);
    return () => {
      listeners.delete(listener);
      window.removeEventListener('storage', onStorage);
    };
  },
};
