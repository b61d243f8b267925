import type { CompiledQuery } from 'kysely';
import type { Database } from '../../db/database';
import type { UserRow } from '../../db/schema';
import type { MembershipWithPortal } from '../tenancy/memberships.repository';

/** A signed-in person as an API request needs them: account, support-session staff, portals. */
export interface SessionPerson {
  user: UserRow;
  /** Platform staff acting as this person in a support session, or null. */
  impersonator: UserRow | null;
  /** Every portal the person belongs to, any status. */
  memberships: MembershipWithPortal[];
}

/** People kept per server; the oldest go first beyond this. */
const MAX_PEOPLE = 10_000;
/** Kept at most this long even while nothing changes (the epoch alone is enough; this bounds memory). */
const KEEP_MS = 60_000;

interface Kept {
  epoch: string;
  keptAt: number;
  person: SessionPerson;
}

/**
 * Signed-in people by token (person, token version, support-session staff), each with the auth epoch
 * read before they were loaded (migration 0023: triggers raise it with every change to an account,
 * a membership or a portal, in the changing transaction). One is reused only while the epoch has
 * not moved, so a suspension, a sign-out or a role change made on any server counts on every server
 * from its next request; a request costs one one-row read instead of loading the person and their
 * portals.
 */
export class SessionCache {
  private readonly people = new Map<string, Kept>();

  /** The person kept under `key` if the epoch has not moved since they were loaded. */
  get(key: string, epoch: string, now = Date.now()): SessionPerson | undefined {
    const kept = this.people.get(key);
    if (!kept) return undefined;
    if (kept.epoch === epoch && now - kept.keptAt < KEEP_MS) return kept.person;
    this.people.delete(key);
    return undefined;
  }

  /** Keeps `person`, loaded after the epoch `epoch` was read. */
  set(key: string, epoch: string, person: SessionPerson, now = Date.now()): void {
    this.people.delete(key);
    this.people.set(key, { epoch, keptAt: now, person });
    if (this.people.size > MAX_PEOPLE) this.people.delete(this.people.keys().next().value!);
  }
}

const caches = new WeakMap<Database, { cache: SessionCache; epochQuery: CompiledQuery }>();

function cacheOf(db: Database) {
  let entry = caches.get(db);
  if (!entry) {
    // Compiled once: building a Kysely query costs more than running this one.
    const epochQuery = db.selectFrom('auth_epoch').select('epoch').where('id', '=', 1).compile();
    entry = { cache: new SessionCache(), epochQuery };
    caches.set(db, entry);
  }
  return entry;
}

/** The session cache of a database (one per server process and database). */
export function sessionCacheOf(db: Database): SessionCache {
  return cacheOf(db).cache;
}

/** The auth epoch now (PostgreSQL answers a bigint as text; SQLite a number). */
export async function readAuthEpoch(db: Database): Promise<string> {
  const { rows } = await db.executeQuery<{ epoch: string | number }>(cacheOf(db).epochQuery);
  return String(rows[0]!.epoch);
}
