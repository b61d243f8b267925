import {
  REPORT_TITLES,
  addDaysToDate,
  explainEntry,
  formatCalendarRange,
  formatDateTime,
  isKnownTimeZone,
  localWallTime,
  whoCanOpen,
  zonedInstant,
  type Report,
  type ReportColumn,
  type ReportFilters,
  type ReportKind,
  type ReportPeriod,
  type ReportRequestParsed,
  type ReportRow,
  type ReportTable,
  personName as sharedPersonName,
} from '@latchkey/shared';
import type { Database } from '../../db/database';
import { toIso } from '../../db/mappers';
import type { DeviceRow } from '../../db/schema';
import { AppError } from '../../base/http/errors';
import { zoneFilter } from '../../base/zones/zone-scope';
import { findPortalById } from '../../base/tenancy/portals.repository';
import { findMembers } from '../../base/tenancy/memberships.repository';
import { listAccessPaths } from '../access/access.repository';
import { loadCredentialSets } from '../access/credential-sets';
import {
  countEntries,
  countLockWarnings,
  listEntryInstants,
  listEntryRows,
  listExpiredPersonCredentials,
  listScopedLocks,
  namesInPortal,
  scopeOf,
  scopedPeople,
  syncStateOfLocks,
  type EntryRow,
  type EventCursor,
  type ReportScope,
} from './reports.repository';

// The four reports (docs/decisions.md "Reports"). Each is a table written a page of rows at a time
// (`reportPages`), so the screen's page, the streamed CSV and the PDF are the same rows: the
// entries come in keyset pages from the events index and never all sit in memory.

/** Rows read per page for CSV and PDF (a keyset page of events, a slice of locks). */
export const REPORT_PAGE_ROWS = 1000;
/** Locks per credential-set slice for the access matrix. */
const LOCKS_PER_SLICE = 200;

/** A report ready to be written: what it covers, in the portal's words. */
export interface ReportContext {
  kind: ReportKind;
  portal: { _id: string; name: string; timeZone: string };
  period: { from: string; to: string; fromInstant: string; untilInstant: string; label: string };
  scope: ReportScope;
  filters: Report['filters'];
  /** When the report was made: "now" of the access matrix and the expired credentials. */
  now: Date;
}

/** The calendar dates a period covers, both included, on the portal's clock. */
export function resolvePeriod(
  period: ReportPeriod,
  timeZone: string,
  now: Date,
): { from: string; to: string } {
  if ('from' in period) return { from: period.from, to: period.to };
  const today = localWallTime(now, timeZone);
  const monday = addDaysToDate(today.date, -((today.weekday + 6) % 7));
  const firstOfMonth = `${today.date.slice(0, 8)}01`;
  switch (period.preset) {
    case 'last-week':
      return { from: addDaysToDate(monday, -7), to: addDaysToDate(monday, -1) };
    case 'this-week':
      return { from: monday, to: today.date };
    case 'this-month':
      return { from: firstOfMonth, to: today.date };
    case 'last-month': {
      const lastDay = addDaysToDate(firstOfMonth, -1);
      return { from: `${lastDay.slice(0, 8)}01`, to: lastDay };
    }
    case 'last-7-days':
      return { from: addDaysToDate(today.date, -6), to: today.date };
    case 'last-30-days':
      return { from: addDaysToDate(today.date, -29), to: today.date };
  }
}

/**
 * Checks the filters and reads what the report covers. A lock, group or person id that is not the
 * portal's (another portal's, or nobody's) is a 404 naming what was not found, before any row is
 * read: the same answer for both, so a report tells nothing of other portals.
 */
export async function prepareReport(
  db: Database,
  portalId: string,
  request: { kind: ReportKind; period: ReportPeriod; filters: ReportFilters },
  now = new Date(),
): Promise<ReportContext> {
  const portal = await findPortalById(db, portalId);
  if (!portal) throw AppError.notFound('Portal');
  // A zone of another portal is a 404 (base/zones), as a lock or a group.
  const scope = {
    ...scopeOf(request.filters),
    zoneIds: await zoneFilter(db, portalId, request.filters.zoneId),
  };
  const named = await namesInPortal(db, portalId, scope);
  if (named.locks.length < new Set(scope.deviceIds).size) throw AppError.notFound('Lock');
  if (named.groups.length < new Set(scope.groupIds).size) throw AppError.notFound('Group');
  if (named.people.length < new Set(scope.userIds).size) throw AppError.notFound('Person');
  const timeZone = isKnownTimeZone(portal.time_zone) ? portal.time_zone : 'UTC';
  const { from, to } = resolvePeriod(request.period, timeZone, now);
  return {
    kind: request.kind,
    portal: { _id: portal.id, name: portal.name, timeZone },
    period: {
      from,
      to,
      fromInstant: zonedInstant(from, '00:00', timeZone).toISOString(),
      untilInstant: zonedInstant(addDaysToDate(to, 1), '00:00', timeZone).toISOString(),
      label: formatCalendarRange(from, to),
    },
    scope,
    filters: named,
    now,
  };
}

const col = (key: string, label: string): ReportColumn => ({ key, label });

/** Each report's columns, in the order the screen, CSV and PDF show them. */
export const REPORT_COLUMNS: Record<ReportKind, ReportColumn[]> = {
  entries: [
    col('time', 'Time (lock clock)'),
    col('zone', 'Time zone'),
    col('lock', 'Lock'),
    col('person', 'Person'),
    col('result', 'Result'),
    col('method', 'How'),
    col('reason', 'Why refused'),
    col('instant', 'Instant (UTC)'),
  ],
  access: [
    col('lock', 'Lock'),
    col('zone', 'Time zone'),
    col('holder', 'Who'),
    col('email', 'Email'),
    col('holderType', 'Holder'),
    col('credentials', 'Credentials'),
    col('canOpenNow', 'Can open now'),
    col('whyNot', 'Why not'),
  ],
  health: [
    col('lock', 'Lock'),
    col('zone', 'Time zone'),
    col('status', 'Status'),
    col('battery', 'Battery %'),
    col('lowBattery', 'Battery low'),
    col('lastSeen', 'Last seen (lock clock)'),
    col('offlineHours', 'Hours offline in period'),
    col('batteryWarnings', 'Battery warnings'),
    col('sync', 'Credential sync'),
    col('syncFailures', 'Sync failures'),
  ],
  people: [
    col('person', 'Person'),
    col('email', 'Email'),
    col('role', 'Role'),
    col('status', 'Status'),
    col('locks', 'Locks they reach'),
    col('problem', 'Problem'),
    col('expired', 'Expired credentials'),
  ],
};

const METHOD_LABELS: Record<string, string> = {
  code: 'Access code',
  rfid: 'Card',
  fingerprint: 'Fingerprint',
  key: 'Key',
  qr: 'QR code',
  remote: 'App',
  manual: 'By hand',
};

const REASON_LABELS: Record<string, string> = {
  unknown_credential: 'Unknown credential',
  suspended: 'Suspended',
  lockout: 'Lockout',
  not_yet_valid: 'Not yet valid',
  expired: 'Expired',
  outside_schedule: 'Outside schedule',
};

const KIND_LABELS: Record<string, string> = { ...METHOD_LABELS, remote: 'App' };

const personName = (row: { first_name: string | null; last_name: string | null; email: string | null }) =>
  sharedPersonName(row.first_name, row.last_name, row.email);

function entryCells(row: EntryRow): ReportRow {
  return {
    time: formatDateTime(row.occurred_at, row.time_zone),
    zone: row.time_zone,
    lock: row.device_name,
    person: row.user_id
      ? personName({ first_name: row.first_name, last_name: row.last_name, email: row.user_email })
      : '',
    result: row.type === 'unlock' ? 'Opened' : 'Refused',
    method: row.method ? (METHOD_LABELS[row.method] ?? row.method) : '',
    reason: row.reason ? (REASON_LABELS[row.reason] ?? row.reason) : '',
    instant: row.occurred_at,
  };
}

const periodOf = (context: ReportContext) => ({
  from: context.period.fromInstant,
  until: context.period.untilInstant,
});

/** The entries in time order, a keyset page at a time. */
async function* entryPages(db: Database, portalId: string, context: ReportContext) {
  let after: EventCursor | undefined;
  for (;;) {
    const rows = await listEntryRows(db, portalId, context.scope, periodOf(context), {
      limit: REPORT_PAGE_ROWS,
      after,
    });
    if (rows.length === 0) return;
    yield rows.map(entryCells);
    if (rows.length < REPORT_PAGE_ROWS) return;
    const last = rows[rows.length - 1]!;
    after = { at: last.occurred_at, id: last.id };
  }
}

/** Who can open each lock now: each lock's credential set, decided by the access engine. */
async function* accessPages(db: Database, portalId: string, context: ReportContext) {
  const locks = await listScopedLocks(db, portalId, context.scope);
  const people = await scopedPeople(db, portalId, context.scope);
  for (let start = 0; start < locks.length; start += LOCKS_PER_SLICE) {
    const slice = locks.slice(start, start + LOCKS_PER_SLICE);
    const sets = await loadCredentialSets(db, portalId, slice);
    const rows: ReportRow[] = [];
    for (const lock of slice) {
      const loaded = sets.get(lock.id);
      if (!loaded) continue;
      const { set, members, sources } = loaded;
      const openers = whoCanOpen(set, context.now);
      const openNow = new Set(openers.flatMap((opener) => opener.credentialIds));
      const byId = new Map(members.map((member) => [member.id, member]));
      // A person once, with every credential kind they hold there; others by credential.
      const personEntries = new Map<string, typeof set.entries>();
      for (const entry of set.entries) {
        if (entry.holderType === 'person' && entry.userId) {
          if (people && !people.has(entry.userId)) continue;
          personEntries.set(entry.userId, [...(personEntries.get(entry.userId) ?? []), entry]);
        } else if (!people) {
          const granted = openNow.has(entry.credentialId);
          const decision = explainEntry(set, entry, context.now);
          rows.push({
            lock: lock.name,
            zone: lock.time_zone,
            holder: sources.get(entry.credentialId)?.label ?? entry.holderType,
            email: '',
            holderType: entry.holderType,
            credentials: KIND_LABELS[entry.kind] ?? entry.kind,
            canOpenNow: granted ? 'Yes' : 'No',
            whyNot: decision.granted ? '' : (REASON_LABELS[decision.reason] ?? decision.reason),
          });
        }
      }
      const personRows = [...personEntries].map(([userId, entries]) => {
        const member = byId.get(userId);
        const granted = entries.some((entry) => openNow.has(entry.credentialId));
        const refusal = entries
          .map((entry) => explainEntry(set, entry, context.now))
          .find((decision) => !decision.granted);
        return {
          lock: lock.name,
          zone: lock.time_zone,
          holder: member ? personName(member) : userId,
          email: member?.email ?? '',
          holderType: 'person',
          credentials: [...new Set(entries.map((entry) => KIND_LABELS[entry.kind] ?? entry.kind))].join(', '),
          canOpenNow: granted ? 'Yes' : 'No',
          whyNot:
            granted || !refusal || refusal.granted ? '' : (REASON_LABELS[refusal.reason] ?? refusal.reason),
        };
      });
      personRows.sort((a, b) => a.holder.localeCompare(b.holder));
      rows.unshift(...personRows);
    }
    if (rows.length > 0) yield rows;
  }
}

/** Hours (one decimal) a lock was offline within [from, until), from its last-seen time. */
function offlineHours(lock: DeviceRow, from: number, until: number, now: number): number | null {
  if (Number(lock.online) === 1) return 0;
  const lastSeen = toIso(lock.last_seen_at);
  if (!lastSeen) return null;
  const start = Math.max(Date.parse(lastSeen), from);
  const end = Math.min(until, now);
  return end > start ? Math.round((end - start) / 360_000) / 10 : 0;
}

/** Battery, time offline and credential sync of each lock in the scope. */
async function* healthPages(db: Database, portalId: string, context: ReportContext) {
  const locks = await listScopedLocks(db, portalId, context.scope);
  for (let start = 0; start < locks.length; start += REPORT_PAGE_ROWS) {
    const slice = locks.slice(start, start + REPORT_PAGE_ROWS);
    const ids = slice.map((lock) => lock.id);
    const [{ rejections, sync }, warnings] = await Promise.all([
      syncStateOfLocks(db, portalId, ids),
      countLockWarnings(db, portalId, ids, periodOf(context)),
    ]);
    yield slice.map((lock): ReportRow => {
      const state = sync.get(lock.id) as
        { desired_version: number; confirmed_version: number | null } | undefined;
      const lastSeen = toIso(lock.last_seen_at);
      return {
        lock: lock.name,
        zone: lock.time_zone,
        status: Number(lock.online) === 1 ? 'Online' : 'Offline',
        battery: lock.battery,
        lowBattery: lock.battery !== null && lock.battery <= lock.low_battery_level ? 'Yes' : 'No',
        lastSeen: lastSeen ? formatDateTime(lastSeen, lock.time_zone) : 'Never',
        offlineHours: offlineHours(
          lock,
          Date.parse(context.period.fromInstant),
          Date.parse(context.period.untilInstant),
          context.now.getTime(),
        ),
        batteryWarnings: warnings.get(lock.id)?.battery ?? 0,
        sync: !state
          ? 'Nothing to sync'
          : state.confirmed_version === state.desired_version
            ? `Confirmed (v${state.desired_version})`
            : `Pending (v${state.confirmed_version ?? 0} of v${state.desired_version})`,
        syncFailures: rejections.get(lock.id) ?? 0,
      };
    });
  }
}

/** People who reach no lock (of the scope's locks, when given) or hold expired credentials. */
async function* peoplePages(db: Database, portalId: string, context: ReportContext) {
  const people = await scopedPeople(db, portalId, context.scope);
  const hasLockScope =
    context.scope.deviceIds.length > 0 ||
    context.scope.groupIds.length > 0 ||
    context.scope.zoneIds !== undefined;
  const [members, paths, expired, scopedLocks] = await Promise.all([
    findMembers(db, portalId),
    listAccessPaths(db, portalId, {}),
    listExpiredPersonCredentials(db, portalId, context.now.toISOString()),
    hasLockScope ? listScopedLocks(db, portalId, context.scope) : Promise.resolve(null),
  ]);
  const lockIds = scopedLocks && new Set(scopedLocks.map((lock) => lock.id));
  const reach = new Map<string, Set<string>>();
  for (const path of paths) {
    if (lockIds && !lockIds.has(path.deviceId)) continue;
    const set = reach.get(path.userId) ?? new Set<string>();
    set.add(path.deviceId);
    reach.set(path.userId, set);
  }
  const expiredOf = new Map<string, typeof expired>();
  for (const credential of expired) {
    const list = expiredOf.get(credential.user_id!) ?? [];
    list.push(credential);
    expiredOf.set(credential.user_id!, list);
  }
  const rows: ReportRow[] = [];
  for (const member of members) {
    if (people && !people.has(member.id)) continue;
    const locks = reach.get(member.id)?.size ?? 0;
    const ended = expiredOf.get(member.id) ?? [];
    if (locks > 0 && ended.length === 0) continue;
    rows.push({
      person: personName(member),
      email: member.email,
      role: member.role === 'admin' ? 'Admin' : 'User',
      status: member.status,
      locks,
      problem: [locks === 0 ? 'No access' : null, ended.length > 0 ? 'Expired credentials' : null]
        .filter(Boolean)
        .join(', '),
      expired: ended
        .map(
          (credential) =>
            `${KIND_LABELS[credential.kind] ?? credential.kind} "${credential.name}" ended ${formatDateTime(
              credential.valid_until!,
              context.portal.timeZone,
              { zone: true },
            )}`,
        )
        .join('; '),
    });
  }
  for (let start = 0; start < rows.length; start += REPORT_PAGE_ROWS) {
    yield rows.slice(start, start + REPORT_PAGE_ROWS);
  }
}

/** The report's rows, a page at a time (CSV, PDF, and the screen's pages of the smaller reports). */
export function reportPages(
  db: Database,
  portalId: string,
  context: ReportContext,
): AsyncGenerator<ReportRow[]> {
  switch (context.kind) {
    case 'entries':
      return entryPages(db, portalId, context);
    case 'access':
      return accessPages(db, portalId, context);
    case 'health':
      return healthPages(db, portalId, context);
    case 'people':
      return peoplePages(db, portalId, context);
  }
}

/** What a reader should know of how the figures were made. */
export function reportNotes(context: ReportContext): string[] {
  const at = formatDateTime(context.now, context.portal.timeZone, { zone: true });
  switch (context.kind) {
    case 'entries':
      return [
        `Openings and refusals the locks reported in the period, in time order. Each time is on its lock's clock (its time zone is beside it); the period's days are on the portal's clock (${context.portal.timeZone}).`,
      ];
    case 'access':
      return [
        `Who can open each lock at ${at}, decided by the same rules the locks apply (schedules on each lock's clock, lockouts, validity). The period does not apply.`,
      ];
    case 'health':
      return [
        'Hours offline: no history of online and offline is stored; a lock offline now counts from when it was last seen (within the period), a lock online now counts 0.',
        "Sync failures: the credentials the lock refused in its last answer to a credential set. Battery warnings: the lock's battery-low reports in the period.",
      ];
    case 'people':
      return [
        `People of the portal who reach no lock${context.scope.deviceIds.length || context.scope.groupIds.length ? ' among the chosen locks' : ''}, or whose credentials (codes, cards, keys, fingerprints) ended before ${at} and were not removed. The period does not apply.`,
      ];
  }
}

/** Per lock and per person counts of the entries report. */
async function entrySummaries(
  db: Database,
  portalId: string,
  context: ReportContext,
): Promise<{ summaries: ReportTable[]; total: number }> {
  const { perLock, perPerson } = await countEntries(db, portalId, context.scope, periodOf(context));
  const lockTotals = new Map<string, { name: string; opened: number; refused: number }>();
  let total = 0;
  for (const row of perLock) {
    const entry = lockTotals.get(row.device_id) ?? { name: row.name, opened: 0, refused: 0 };
    if (row.type === 'unlock') entry.opened += row.n;
    else entry.refused += row.n;
    total += row.n;
    lockTotals.set(row.device_id, entry);
  }
  const personTotals = new Map<string, { opened: number; refused: number }>();
  for (const row of perPerson) {
    const key = row.user_id ?? '';
    const entry = personTotals.get(key) ?? { opened: 0, refused: 0 };
    if (row.type === 'unlock') entry.opened += row.n;
    else entry.refused += row.n;
    personTotals.set(key, entry);
  }
  const members = await findMembers(
    db,
    portalId,
    [...personTotals.keys()].filter((id) => id !== ''),
  );
  const names = new Map(members.map((member) => [member.id, personName(member)]));
  const counts = [col('opened', 'Opened'), col('refused', 'Refused')];
  return {
    total,
    summaries: [
      {
        title: 'Per lock',
        columns: [col('lock', 'Lock'), ...counts],
        rows: [...lockTotals.values()]
          .sort((a, b) => a.name.localeCompare(b.name))
          .map((entry) => ({ lock: entry.name, opened: entry.opened, refused: entry.refused })),
      },
      {
        title: 'Per person',
        columns: [col('person', 'Person'), ...counts],
        rows: [...personTotals]
          .map(([id, entry]) => ({
            person: id ? (names.get(id) ?? 'Former member') : 'No person (unknown credential, guest or code)',
            opened: entry.opened,
            refused: entry.refused,
          }))
          .sort((a, b) => a.person.localeCompare(b.person)),
      },
    ],
  };
}

/** Entries per day of the period, on the portal's clock (the screen's chart). */
async function entriesPerDay(db: Database, portalId: string, context: ReportContext) {
  const days = new Map<string, { day: string; opened: number; denied: number }>();
  for (let day = context.period.from; day <= context.period.to; day = addDaysToDate(day, 1)) {
    days.set(day, { day, opened: 0, denied: 0 });
  }
  let after: EventCursor | undefined;
  for (;;) {
    const rows = await listEntryInstants(db, portalId, context.scope, periodOf(context), {
      limit: 5000,
      after,
    });
    for (const row of rows) {
      const day = days.get(localWallTime(new Date(row.occurred_at), context.portal.timeZone).date);
      if (!day) continue;
      if (row.type === 'unlock') day.opened++;
      else day.denied++;
    }
    if (rows.length < 5000) break;
    const last = rows[rows.length - 1]!;
    after = { at: last.occurred_at, id: last.id };
  }
  return [...days.values()];
}

/** The zones the rows' times are on: the locks' (entries, health, access), or the portal's. */
function zonesOf(context: ReportContext, rows: ReportRow[]): string[] {
  const zones = new Set(
    rows.map((row) => row.zone).filter((zone): zone is string => typeof zone === 'string'),
  );
  if (zones.size === 0) zones.add(context.portal.timeZone);
  return [...zones].sort();
}

/** POST portal/report (format json): what the report covers and one page of its rows. */
export async function getReport(
  db: Database,
  portalId: string,
  request: ReportRequestParsed,
  now = new Date(),
): Promise<Report> {
  const context = await prepareReport(db, portalId, request, now);
  const base = {
    kind: context.kind,
    title: REPORT_TITLES[context.kind],
    portal: { _id: context.portal._id, name: context.portal.name },
    period: {
      from: context.period.from,
      to: context.period.to,
      timeZone: context.portal.timeZone,
      label: context.period.label,
    },
    filters: context.filters,
    notes: reportNotes(context),
    columns: REPORT_COLUMNS[context.kind],
    skip: request.skip,
    limit: request.limit,
  };
  if (context.kind === 'entries') {
    const [{ summaries, total }, page, perDay, locks] = await Promise.all([
      entrySummaries(db, portalId, context),
      listEntryRows(db, portalId, context.scope, periodOf(context), {
        limit: request.limit,
        skip: request.skip,
      }),
      entriesPerDay(db, portalId, context),
      listScopedLocks(db, portalId, context.scope),
    ]);
    const rows = page.map(entryCells);
    return {
      ...base,
      zones: [...new Set(locks.map((lock) => lock.time_zone))].sort(),
      rows,
      total,
      summaries,
      charts: { entriesPerDay: perDay, syncFailuresPerLock: [] },
    };
  }
  // The other reports have a row per lock, person or lock and holder: read whole, shown a page.
  const all: ReportRow[] = [];
  for await (const rows of reportPages(db, portalId, context)) all.push(...rows);
  return {
    ...base,
    zones: zonesOf(context, all),
    rows: all.slice(request.skip, request.skip + request.limit),
    total: all.length,
    summaries: [],
    charts: {
      entriesPerDay: [],
      syncFailuresPerLock:
        context.kind === 'health'
          ? all.map((row) => ({ lock: String(row.lock), failures: Number(row.syncFailures) }))
          : [],
    },
  };
}

/** The file a report is downloaded as: "entries-2026-11-16-to-2026-11-22.csv". */
export function reportFileName(context: ReportContext, extension: 'csv' | 'pdf'): string {
  return `${context.kind}-${context.period.from}-to-${context.period.to}.${extension}`;
}
