// The platform console's reads (issue 20, item 1): across portals by design, so every function
// here is for platform staff's routes only (config.access: access.platform), never a portal's.
import crypto from 'node:crypto';
import type { AdminUsersQuery, PlatformPortalsQuery } from '@latchkey/shared';
import { sql } from 'kysely';
import type { Database } from '../../db/database';
import { containsText } from '../../db/like';
import { nowIso, toCount, toIso } from '../../db/mappers';

/** One page of every account, with the total matching the query. */
export async function listAccounts(db: Database, query: AdminUsersQuery) {
  let base = db.selectFrom('users as u');
  if (query.search) {
    const term = query.search;
    base = base.where((eb) =>
      eb.or([
        containsText('u.email', term),
        containsText('u.first_name', term),
        containsText('u.last_name', term),
        containsText(sql<string>`u.first_name || ' ' || u.last_name`, term),
      ]),
    );
  }
  if (query.filterBy === 'status' && query.filterValue) base = base.where('u.status', '=', query.filterValue);
  if (query.filterBy === 'platformRole' && query.filterValue) {
    base =
      query.filterValue === 'none'
        ? base.where('u.platform_role', 'is', null)
        : base.where('u.platform_role', '=', query.filterValue);
  }
  const direction = query.descending ? 'desc' : 'asc';
  const sortBy = query.sortBy ?? 'email';
  let page = base.select([
    'u.id',
    'u.email',
    'u.first_name',
    'u.last_name',
    'u.platform_role',
    'u.status',
    'u.created_at',
  ]);
  if (sortBy === 'name') page = page.orderBy('u.first_name', direction).orderBy('u.last_name', direction);
  else if (sortBy === 'createdAt') page = page.orderBy('u.created_at', direction);
  else page = page.orderBy('u.email', direction);
  const [rows, total] = await Promise.all([
    page.orderBy('u.id').limit(query.limit).offset(query.skip).execute(),
    base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: toCount(total.n) };
}

/** The portals of these people, with their role there and whether they own it. */
export async function membershipsOfAccounts(db: Database, userIds: string[]) {
  if (userIds.length === 0) return [];
  return db
    .selectFrom('memberships as m')
    .innerJoin('portals as p', 'p.id', 'm.portal_id')
    .select(['m.user_id', 'm.role', 'm.status', 'p.id', 'p.name', 'p.owner_user_id'])
    .where('m.user_id', 'in', userIds)
    .orderBy('p.name')
    .execute();
}

/** One page of every portal with its owner, the total matching; search on name and owner's email. */
export async function listPortals(db: Database, query: PlatformPortalsQuery) {
  let base = db.selectFrom('portals as p').innerJoin('users as o', 'o.id', 'p.owner_user_id');
  if (query.search) {
    const term = query.search;
    base = base.where((eb) => eb.or([containsText('p.name', term), containsText('o.email', term)]));
  }
  if (query.filterBy === 'resellerId' && query.filterValue) {
    const resellerId = query.filterValue;
    base = base.where((eb) =>
      eb.exists(
        eb
          .selectFrom('reseller_links as l')
          .select('l.id')
          .whereRef('l.portal_id', '=', 'p.id')
          .where('l.unlinked_at', 'is', null)
          .where('l.reseller_id', '=', resellerId),
      ),
    );
  }
  const direction = query.descending ? 'desc' : 'asc';
  const sortBy = query.sortBy ?? 'name';
  const column = sortBy === 'createdAt' ? 'p.created_at' : sortBy === 'ownerEmail' ? 'o.email' : 'p.name';
  const [rows, total] = await Promise.all([
    base
      .select(portalColumns)
      .orderBy(column, direction)
      .orderBy('p.id')
      .limit(query.limit)
      .offset(query.skip)
      .execute(),
    base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: toCount(total.n) };
}

const portalColumns = [
  'p.id',
  'p.name',
  'p.time_zone',
  'p.created_at',
  'o.id as owner_id',
  'o.email as owner_email',
  'o.first_name as owner_first_name',
  'o.last_name as owner_last_name',
] as const;

/** One portal with its owner, or undefined. */
export function findPortalWithOwner(db: Database, portalId: string) {
  return db
    .selectFrom('portals as p')
    .innerJoin('users as o', 'o.id', 'p.owner_user_id')
    .select(portalColumns)
    .where('p.id', '=', portalId)
    .executeTakeFirst();
}

export type PortalWithOwnerRow = NonNullable<Awaited<ReturnType<typeof findPortalWithOwner>>>;

/** Counts and latest activity of these portals: locks, people, last event or change, reseller. */
export async function portalFigures(db: Database, portalIds: string[]) {
  if (portalIds.length === 0) return new Map<string, PortalFigures>();
  const [locks, people, events, changes, resellers] = await Promise.all([
    db
      .selectFrom('devices')
      .select(['portal_id', (eb) => eb.fn.countAll().as('n')])
      .where('portal_id', 'in', portalIds)
      .where('deleted_at', 'is', null)
      .groupBy('portal_id')
      .execute(),
    db
      .selectFrom('member_counts')
      .select(['portal_id', (eb) => eb.fn.sum<number>('members').as('n')])
      .where('portal_id', 'in', portalIds)
      .groupBy('portal_id')
      .execute(),
    db
      .selectFrom('device_events')
      .select(['portal_id', (eb) => eb.fn.max('occurred_at').as('at')])
      .where('portal_id', 'in', portalIds)
      .groupBy('portal_id')
      .execute(),
    db
      .selectFrom('audit_log')
      .select(['portal_id', (eb) => eb.fn.max('created_at').as('at')])
      .where('portal_id', 'in', portalIds)
      .groupBy('portal_id')
      .execute(),
    db
      .selectFrom('reseller_links as l')
      .innerJoin('resellers as r', 'r.id', 'l.reseller_id')
      .select(['l.portal_id', 'r.id', 'r.name'])
      .where('l.portal_id', 'in', portalIds)
      .where('l.unlinked_at', 'is', null)
      .execute(),
  ]);
  const figures = new Map<string, PortalFigures>(
    portalIds.map((id) => [id, { lockCount: 0, peopleCount: 0, lastActivityAt: null, reseller: null }]),
  );
  for (const row of locks) figures.get(row.portal_id)!.lockCount = toCount(row.n);
  for (const row of people) figures.get(row.portal_id)!.peopleCount = toCount(row.n);
  for (const row of [...events, ...changes]) {
    const entry = figures.get(row.portal_id)!;
    const at = row.at ? toIso(row.at as Date | string) : null;
    if (at && (!entry.lastActivityAt || at > entry.lastActivityAt)) entry.lastActivityAt = at;
  }
  for (const row of resellers) figures.get(row.portal_id)!.reseller = { _id: row.id, companyName: row.name };
  return figures;
}

export interface PortalFigures {
  lockCount: number;
  peopleCount: number;
  lastActivityAt: string | null;
  reseller: { _id: string; companyName: string } | null;
}

/** A portal's active admins, the owner first. */
export function portalAdmins(db: Database, portalId: string) {
  return db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .innerJoin('portals as p', 'p.id', 'm.portal_id')
    .select(['u.id', 'u.email', 'u.first_name', 'u.last_name', 'p.owner_user_id'])
    .where('m.portal_id', '=', portalId)
    .where('m.role', '=', 'admin')
    .where('m.status', '=', 'active')
    .orderBy(sql`case when u.id = p.owner_user_id then 0 else 1 end`)
    .orderBy('u.email')
    .limit(50)
    .execute();
}

/** A portal's locks online and offline (locks never seen count as offline). */
export async function portalLockStates(db: Database, portalId: string) {
  const rows = await db
    .selectFrom('devices')
    .select(['online', (eb) => eb.fn.countAll().as('n')])
    .where('portal_id', '=', portalId)
    .where('deleted_at', 'is', null)
    .groupBy('online')
    .execute();
  let online = 0;
  let offline = 0;
  for (const row of rows) {
    if (Number(row.online) === 1) online += toCount(row.n);
    else offline += toCount(row.n);
  }
  return { online, offline };
}

/** A portal's latest change-log entries, with who made them. */
export function recentChanges(db: Database, portalId: string, limit = 10) {
  return db
    .selectFrom('audit_log as a')
    .leftJoin('users as u', 'u.id', 'a.actor_user_id')
    .select(['a.id', 'a.action', 'a.entity_type', 'a.created_at', 'u.email as actor_email'])
    .where('a.portal_id', '=', portalId)
    .orderBy('a.created_at', 'desc')
    .orderBy('a.id', 'desc')
    .limit(limit)
    .execute();
}

/** What in a portal wants a look: failed mail, failing feeds, staff alerts of the week, unconfirmed sets. */
export async function portalProblemCounts(db: Database, portalId: string) {
  const weekAgo = new Date(Date.now() - 7 * 24 * 3600_000).toISOString();
  const [mail, feeds, alerts, sync] = await Promise.all([
    db
      .selectFrom('mail_outbox')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('portal_id', '=', portalId)
      .where('failed_at', 'is not', null)
      .where('failed_at', '>', weekAgo)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('listing_ical_feeds')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('portal_id', '=', portalId)
      .where(failingFeed)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('staff_alerts')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('portal_id', '=', portalId)
      .where('created_at', '>', weekAgo)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('device_credential_sync')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('portal_id', '=', portalId)
      .where(syncPending)
      .executeTakeFirstOrThrow(),
  ]);
  return {
    failedMail: toCount(mail.n),
    failingFeeds: toCount(feeds.n),
    staffAlerts: toCount(alerts.n),
    syncPending: toCount(sync.n),
  };
}

/** A feed whose last read failed (an error newer than its last success). */
const failingFeed = sql<boolean>`last_error_at is not null and (last_success_at is null or last_error_at > last_success_at)`;
/** A lock whose confirmed set is behind the one it should hold. */
const syncPending = sql<boolean>`confirmed_version is null or confirmed_version < desired_version`;

// ---- Background work ----------------------------------------------------------------------------

/** The deployment's background work: queues, failures, connections, open checkouts, periodic jobs. */
export async function workAtAGlance(db: Database) {
  const now = nowIso();
  const weekAgo = new Date(Date.now() - 7 * 24 * 3600_000).toISOString();
  const [
    mailQueued,
    mailFailed,
    oldestDue,
    mailFailures,
    lockStates,
    disconnects,
    syncPendingCount,
    commandsPending,
    feedTotal,
    feedFailing,
    feedFailures,
    openCheckouts,
    alertsThisWeek,
    recentAlerts,
    jobs,
  ] = await Promise.all([
    db
      .selectFrom('mail_outbox')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('sent_at', 'is', null)
      .where('failed_at', 'is', null)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('mail_outbox')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('failed_at', 'is not', null)
      .where('sent_at', 'is', null)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('mail_outbox')
      .select((eb) => eb.fn.min('next_attempt_at').as('at'))
      .where('sent_at', 'is', null)
      .where('failed_at', 'is', null)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('mail_outbox')
      .select(['id', 'to_address', 'subject', 'template', 'last_error', 'failed_at', 'attempts'])
      .where('sent_at', 'is', null)
      .where((eb) => eb.or([eb('failed_at', 'is not', null), eb('last_error', 'is not', null)]))
      .orderBy('created_at', 'desc')
      .limit(20)
      .execute(),
    db
      .selectFrom('devices')
      .select([
        sql<string>`case when online = 1 then 'online' when last_seen_at is null then 'never' else 'offline' end`.as(
          'state',
        ),
        (eb) => eb.fn.countAll().as('n'),
      ])
      .where('deleted_at', 'is', null)
      .groupBy(
        sql`case when online = 1 then 'online' when last_seen_at is null then 'never' else 'offline' end`,
      )
      .execute(),
    db
      .selectFrom('devices as d')
      .innerJoin('portals as p', 'p.id', 'd.portal_id')
      .select(['d.id', 'd.name', 'd.portal_id', 'p.name as portal_name', 'd.last_seen_at'])
      .where('d.deleted_at', 'is', null)
      .where('d.online', '=', 0)
      .where('d.last_seen_at', 'is not', null)
      .orderBy('d.last_seen_at', 'desc')
      .limit(10)
      .execute(),
    db
      .selectFrom('device_credential_sync as s')
      .innerJoin('devices as d', 'd.id', 's.device_id')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('d.deleted_at', 'is', null)
      .where(sql<boolean>`s.confirmed_version is null or s.confirmed_version < s.desired_version`)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('device_commands')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('status', '=', 'pending')
      .where('expires_at', '>', now)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('listing_ical_feeds')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('listing_ical_feeds')
      .select((eb) => eb.fn.countAll().as('n'))
      .where(failingFeed)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('listing_ical_feeds as f')
      .innerJoin('portals as p', 'p.id', 'f.portal_id')
      .select([
        'f.id',
        'f.name',
        'f.listing_id',
        'f.portal_id',
        'p.name as portal_name',
        'f.last_error',
        'f.last_error_at',
      ])
      .where(
        sql<boolean>`f.last_error_at is not null and (f.last_success_at is null or f.last_error_at > f.last_success_at)`,
      )
      .orderBy('f.last_error_at', 'desc')
      .limit(20)
      .execute(),
    db
      .selectFrom('checkouts')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('status', '=', 'open')
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('staff_alerts')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('created_at', '>', weekAgo)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('staff_alerts')
      .select(['id', 'kind', 'title', 'message', 'created_at'])
      .orderBy('created_at', 'desc')
      .limit(10)
      .execute(),
    db.selectFrom('scheduled_jobs').select(['name', 'next_run_at', 'last_done_at']).orderBy('name').execute(),
  ]);
  const states = Object.fromEntries(lockStates.map((row) => [row.state, toCount(row.n)]));
  return {
    mail: {
      queued: toCount(mailQueued.n),
      failed: toCount(mailFailed.n),
      oldestDueAt: oldestDue.at ? toIso(oldestDue.at as Date | string) : null,
      recentFailures: mailFailures.map((row) => ({
        _id: row.id,
        to: row.to_address,
        subject: row.subject,
        template: row.template,
        lastError: row.last_error,
        failedAt: toIso(row.failed_at),
        attempts: row.attempts,
      })),
    },
    locks: {
      online: states.online ?? 0,
      offline: states.offline ?? 0,
      never: states.never ?? 0,
      recentDisconnects: disconnects.map((row) => ({
        _id: row.id,
        name: row.name,
        portalId: row.portal_id,
        portalName: row.portal_name,
        lastSeenAt: toIso(row.last_seen_at),
      })),
      syncPending: toCount(syncPendingCount.n),
      commandsPending: toCount(commandsPending.n),
    },
    feeds: {
      total: toCount(feedTotal.n),
      failing: toCount(feedFailing.n),
      failures: feedFailures.map((row) => ({
        _id: row.id,
        name: row.name,
        listingId: row.listing_id,
        portalId: row.portal_id,
        portalName: row.portal_name,
        lastError: row.last_error,
        lastErrorAt: toIso(row.last_error_at),
      })),
    },
    payments: {
      openCheckouts: toCount(openCheckouts.n),
      alertsThisWeek: toCount(alertsThisWeek.n),
      recentAlerts: recentAlerts.map((row) => ({
        _id: row.id,
        kind: row.kind,
        title: row.title,
        message: row.message,
        createdAt: toIso(row.created_at),
      })),
    },
    jobs: jobs.map((row) => ({
      name: row.name,
      nextRunAt: toIso(row.next_run_at),
      lastDoneAt: toIso(row.last_done_at),
    })),
  };
}

/** A mail of the outbox, or undefined. */
export function findMail(db: Database, mailId: string) {
  return db
    .selectFrom('mail_outbox')
    .select(['id', 'portal_id', 'to_address', 'subject', 'sent_at', 'failed_at', 'attempts'])
    .where('id', '=', mailId)
    .executeTakeFirst();
}

/** Makes an unsent mail due now with its attempts counted afresh; false when it was sent meanwhile. */
export async function makeMailDueNow(db: Database, mailId: string): Promise<boolean> {
  const rows = await db
    .updateTable('mail_outbox')
    .set({ failed_at: null, attempts: 0, next_attempt_at: nowIso() })
    .where('id', '=', mailId)
    .where('sent_at', 'is', null)
    .returning('id')
    .execute();
  return rows.length > 0;
}

/** A calendar feed with its portal, or undefined. */
export function findFeed(db: Database, feedId: string) {
  return db
    .selectFrom('listing_ical_feeds')
    .select(['id', 'portal_id', 'listing_id', 'name'])
    .where('id', '=', feedId)
    .executeTakeFirst();
}

/** Appends to the platform's own change log (what has no portal's log, or is also staff's). */
export async function appendPlatformAudit(
  db: Database,
  entry: {
    actorUserId: string;
    action: string;
    entityType: string;
    entityId: string;
    portalId?: string | null;
    before?: unknown;
    after?: unknown;
    ip: string;
  },
): Promise<void> {
  await db
    .insertInto('platform_audit')
    .values({
      id: crypto.randomUUID(),
      actor_user_id: entry.actorUserId,
      action: entry.action,
      entity_type: entry.entityType,
      entity_id: entry.entityId,
      portal_id: entry.portalId ?? null,
      before_json: entry.before === undefined ? null : JSON.stringify(entry.before),
      after_json: entry.after === undefined ? null : JSON.stringify(entry.after),
      ip: entry.ip,
      created_at: nowIso(),
    })
    .execute();
}
