import type { PortalRole } from '@latchkey/shared';
import type { PortalRow, UserRow } from '../../db/schema';
import type { MembershipWithPortal } from '../tenancy/memberships.repository';

// What a signed-in request knows about its person. Its own module, so that http/access.ts (which
// builds it) and the services that take it (session, acting portal) import it without importing
// each other.

/** The portal a request acts in and the person's role there. */
export interface ActingPortal {
  portal: PortalRow;
  role: PortalRole;
  /** A superAdmin acting in a portal they are not a member of. */
  viaPlatformRole: boolean;
  /** The reseller through which the person acts here (its customer's leave), when that is how. */
  viaResellerId?: string;
}

/** The person behind a request's token, their portals and where the request acts. */
export interface RequestAuth {
  user: UserRow;
  isSuperAdmin: boolean;
  /** Every portal the person belongs to, any status. */
  memberships: MembershipWithPortal[];
  /** Null when the person has no portal to act in (no own portal, no active membership). */
  acting: ActingPortal | null;
  /** Platform staff acting as this person in a support session, or null. */
  impersonator: UserRow | null;
  /**
   * The API key the request was made with, or null for a person's session. With a key, `user` is
   * the key's stand-in (never stored, no memberships), `acting` its portal as an admin, and what
   * the key may do is limited by its scopes (http/access.ts).
   */
  apiKey: RequestApiKey | null;
}

/** An API key as a request made with it knows it (features/api-keys). */
export interface RequestApiKey {
  id: string;
  name: string;
  /** The 8 public characters after `lk_live_`. */
  prefix: string;
  scopes: string[];
}
