import crypto from 'node:crypto';
import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { Database } from '../../db/database';
import { nowIso } from '../../db/mappers';
import type { DB, DevicesTable } from '../../db/schema';
import { trackEntriesWritten } from '../audit/audit.repository';

/**
 * The locks a change to access can affect, said by the change itself (docs/decisions.md "When sets
 * are recomputed"). Each form names the locks through what the change altered, read from the
 * database in the change's own transaction:
 * - `locks`: these locks (a direct link, a schedule, a guest invite, a fingerprint, a lock's settings);
 * - `person`: every lock the person reaches directly or through a group, or holds a credential
 *   bound to (their codes and cards, role and status show at all of them);
 * - `group`: every lock of the group (someone joining or leaving it);
 * - `lockout`: the lockout's locks;
 * - `boundTo`: the locks a credential is bound to (a digital key).
 * A change to the whole portal names its locks (a company code: the keypad locks).
 * A change that takes access away says so before it does, while the links still name the locks.
 */
export type TouchedLocks =
  | { locks: readonly string[] }
  | { person: string }
  | { group: string }
  | { lockout: string }
  | { boundTo: string };

/** Records locks a change touched, in the change's transaction. */
export type Touch = (portalId: string, touched: TouchedLocks) => Promise<void>;

/** Told after a change to access committed, with the portals whose locks it touched. */
export type LocksTouchedListener = (portalIds: string[]) => void;

/** Explicit lock lists are written in slices, under both databases' bound-parameter limits. */
const IDS_PER_STATEMENT = 1000;

/** A condition on `devices as d`. */
type LockCondition = (eb: ExpressionBuilder<DB & { d: DevicesTable }, 'd'>) => Expression<SqlBool>;

/** The locks a touched-locks value names through links (not `locks`). */
function locksLinkedBy(
  portalId: string,
  touched: Exclude<TouchedLocks, { locks: readonly string[] }>,
): LockCondition {
  return (eb) => {
    if ('group' in touched) {
      return eb(
        'd.id',
        'in',
        eb
          .selectFrom('group_devices')
          .select('device_id')
          .where('portal_id', '=', portalId)
          .where('group_id', '=', touched.group),
      );
    }
    if ('lockout' in touched) {
      return eb(
        'd.id',
        'in',
        eb
          .selectFrom('lockout_devices')
          .select('device_id')
          .where('portal_id', '=', portalId)
          .where('lockout_id', '=', touched.lockout),
      );
    }
    if ('boundTo' in touched) {
      return eb(
        'd.id',
        'in',
        eb
          .selectFrom('credential_devices')
          .select('device_id')
          .where('portal_id', '=', portalId)
          .where('credential_id', '=', touched.boundTo),
      );
    }
    const userId = touched.person;
    return eb.or([
      eb(
        'd.id',
        'in',
        eb
          .selectFrom('device_users')
          .select('device_id')
          .where('portal_id', '=', portalId)
          .where('user_id', '=', userId),
      ),
      eb(
        'd.id',
        'in',
        eb
          .selectFrom('group_users as gu')
          .innerJoin('group_devices as gd', (j) =>
            j.onRef('gd.group_id', '=', 'gu.group_id').onRef('gd.portal_id', '=', 'gu.portal_id'),
          )
          .select('gd.device_id')
          .where('gu.portal_id', '=', portalId)
          .where('gu.user_id', '=', userId),
      ),
      eb(
        'd.id',
        'in',
        eb
          .selectFrom('credentials as c')
          .innerJoin('credential_devices as cd', (j) =>
            j.onRef('cd.credential_id', '=', 'c.id').onRef('cd.portal_id', '=', 'c.portal_id'),
          )
          .select('cd.device_id')
          .where('c.portal_id', '=', portalId)
          .where('c.user_id', '=', userId)
          .where('c.revoked_at', 'is', null),
      ),
    ]);
  };
}

/**
 * Writes the locks `touched` names to the recompute outbox under `token`: one INSERT … SELECT, so
 * the locks are read where they are (the database) however many there are. A lock already waiting
 * takes the newer token.
 */
export async function recordTouchedLocks(
  trx: Database,
  portalId: string,
  touched: TouchedLocks,
  token: string,
): Promise<void> {
  const touchedAt = nowIso();
  const write = (where: LockCondition) =>
    trx
      .insertInto('device_credential_recompute')
      .columns(['device_id', 'portal_id', 'token', 'touched_at'])
      .expression((eb) => {
        return eb
          .selectFrom('devices as d')
          .select((s) => ['d.id', 'd.portal_id', s.val(token).as('token'), s.val(touchedAt).as('touched_at')])
          .where('d.portal_id', '=', portalId)
          .where('d.deleted_at', 'is', null)
          .where(where);
      })
      .onConflict((oc) =>
        oc.column('device_id').doUpdateSet((eb) => ({
          token: eb.ref('excluded.token'),
          touched_at: eb.ref('excluded.touched_at'),
        })),
      )
      .execute();
  if ('locks' in touched) {
    const ids = [...new Set(touched.locks)];
    for (let start = 0; start < ids.length; start += IDS_PER_STATEMENT) {
      const slice = ids.slice(start, start + IDS_PER_STATEMENT);
      await write((eb) => eb('d.id', 'in', slice));
    }
    return;
  }
  await write(locksLinkedBy(portalId, touched));
}

const listeners = new WeakMap<Database, Set<LocksTouchedListener>>();

/** Calls `listener` after each committed change to access made through `db`; answers the unsubscribe. */
export function onLocksTouched(db: Database, listener: LocksTouchedListener): () => void {
  let set = listeners.get(db);
  if (!set) listeners.set(db, (set = new Set()));
  set.add(listener);
  return () => set.delete(listener);
}

/**
 * Names the locks a change touched (the outbox rows under its token) on the change-log entries it
 * wrote that name no lock themselves, so each lock's history shows what changed who can open it
 * (a person joining a group, a company code, a person suspended), whichever feature made the change
 * (base/audit, `audit_log_devices`). An entry that names its locks keeps just those: an invitation's
 * grant on one lock is not about the invitation's other locks.
 */
async function nameTouchedLocksOnEntries(trx: Database, auditIds: readonly string[], token: string) {
  await trx
    .insertInto('audit_log_devices')
    .columns(['audit_id', 'portal_id', 'device_id', 'created_at'])
    .expression((eb) =>
      eb
        .selectFrom('audit_log as a')
        .innerJoin('device_credential_recompute as r', 'r.portal_id', 'a.portal_id')
        .select(['a.id', 'a.portal_id', 'r.device_id', 'a.created_at'])
        .where('r.token', '=', token)
        .where('a.id', 'in', auditIds)
        .where((w) =>
          w.not(
            w.exists(
              w
                .selectFrom('audit_log_devices as named')
                .select('named.audit_id')
                .whereRef('named.audit_id', '=', 'a.id'),
            ),
          ),
        ),
    )
    .onConflict((oc) => oc.columns(['audit_id', 'device_id']).doNothing())
    .execute();
}

/**
 * Runs a change to access in one transaction. The change says which locks it touched by calling
 * `touch` (in its transaction, so the outbox row commits or rolls back with it); its change-log
 * entries then name those locks. Once it has committed, the device link is told, and recomputes
 * those locks and no others. Should the server stop in between, the outbox still names them (the
 * device link drains it when it starts).
 */
export async function changeAccess<T>(
  db: Database,
  change: (trx: Database, touch: Touch) => Promise<T>,
): Promise<T> {
  const token = crypto.randomUUID();
  const portals = new Set<string>();
  const result = await db.transaction().execute(async (trx) => {
    const entries = trackEntriesWritten(trx);
    const value = await change(trx, async (portalId, touched) => {
      portals.add(portalId);
      await recordTouchedLocks(trx, portalId, touched, token);
    });
    if (entries.length > 0 && portals.size > 0) await nameTouchedLocksOnEntries(trx, entries, token);
    return value;
  });
  if (portals.size > 0) {
    for (const listener of listeners.get(db) ?? []) listener([...portals]);
  }
  return result;
}
