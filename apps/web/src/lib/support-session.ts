import { portalContextSchema, type PortalContext } from '@latchkey/shared';

/**
 * Support sessions: platform staff act as a person to help them. The staff member's own token,
 * portal override and the page they came from are kept in this tab's sessionStorage while the
 * support token is the session, and restored when it ends. Starting and ending one call the
 * server: the auth feature's `api/start-support-session.ts` and `api/end-support-session.ts`.
 */

const STORAGE_KEY = 'latchkey.supportSession';

export interface StoredSupportSession {
  /** The staff member's own token, to return to. */
  staffToken: string;
  /** Where the staff member started the session (an app path). */
  originUrl: string;
  staffPortal: string | null;
  staffPortalContext: PortalContext | null;
}

function read(): StoredSupportSession | null {
  try {
    const raw = window.sessionStorage.getItem(STORAGE_KEY);
    if (!raw) return null;
    const value = JSON.parse(raw) as Partial<StoredSupportSession>;
    if (typeof value.staffToken !== 'string' || typeof value.originUrl !== 'string') return null;
    const context = portalContextSchema.safeParse(value.staffPortalContext);
    return {
      staffToken: value.staffToken,
      originUrl: value.originUrl,
      staffPortal: typeof value.staffPortal === 'string' ? value.staffPortal : null,
      staffPortalContext: context.success ? context.data : null,
    };
  } catch {
    return null;
  }
}

function write(value: StoredSupportSession | null): void {
  try {
    if (value) window.sessionStorage.setItem(STORAGE_KEY, JSON.stringify(value));
    else window.sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // sessionStorage can be disabled: ending the session then signs the staff member out.
  }
}

/** The stored staff side of a support session in this tab, if any. */
export function storedSupportSession(): StoredSupportSession | null {
  return read();
}

/** Keeps (or, with null, forgets) the staff side of a support session in this tab. */
export function keepSupportSession(value: StoredSupportSession | null): void {
  write(value);
}
