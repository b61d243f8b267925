// The platform console's rules (issue 20, item 1): who a portal is to platform staff (owner,
// standing through the subscriptions' own rule, figures, problems, support sessions), people
// across portals, flag switches and retried background work, each written to a change log.
import type {
  AdminUser,
  AdminUsersQuery,
  FeatureFlagInput,
  FeatureFlagState,
  PlatformPortal,
  PlatformPortalDetail,
  PlatformPortalsQuery,
  WorkRetryInput,
} from '@latchkey/shared';
import type { Database } from '../../db/database';
import { toIso } from '../../db/mappers';
import { recordChange, type AuditChange } from '../../base/audit/audit.repository';
import { featureFlagStates, setDeploymentFlag, setPortalFlag } from '../../base/feature-flags/feature-flags';
import { AppError } from '../../base/http/errors';
import { activeSupportSessions } from '../auth/support-sessions.repository';
import { requestSync } from '../calendars/ical-feeds.service';
import type { IcalDeps } from '../calendars/ical-deps';
import { portalStanding } from '../subscriptions/portal-standing.service';
import {
  appendPlatformAudit,
  findFeed,
  findMail,
  findPortalWithOwner,
  listAccounts,
  listPortals,
  makeMailDueNow,
  membershipsOfAccounts,
  portalAdmins,
  portalFigures,
  portalLockStates,
  portalProblemCounts,
  recentChanges,
  type PortalWithOwnerRow,
} from './platform.repository';

/** Who acts, from where: what every staff change records. */
export interface StaffContext {
  actorUserId: string;
  ip: string;
}

/** GET system/adminUsers: every account with its portals. */
export async function listAdminUsers(
  db: Database,
  query: AdminUsersQuery,
): Promise<{ items: AdminUser[]; total: number }> {
  const { rows, total } = await listAccounts(db, query);
  const memberships = await membershipsOfAccounts(
    db,
    rows.map((row) => row.id),
  );
  return {
    total,
    items: rows.map((row) => ({
      _id: row.id,
      email: row.email,
      firstName: row.first_name,
      lastName: row.last_name,
      platformRole: row.platform_role,
      status: row.status,
      portals: memberships
        .filter((m) => m.user_id === row.id)
        .map((m) => ({
          _id: m.id,
          name: m.name,
          role: m.role,
          status: m.status,
          owner: m.owner_user_id === row.id,
        })),
      createdAt: toIso(row.created_at),
      // Sign-ins are not recorded per person yet (sessions are stateless tokens).
      lastSignInAt: null,
    })),
  };
}

async function presentPortals(db: Database, rows: PortalWithOwnerRow[]): Promise<PlatformPortal[]> {
  const figures = await portalFigures(
    db,
    rows.map((row) => row.id),
  );
  // The standing comes from the subscriptions' own rule (the brief's "current": stripe status
  // active or expireDate in the future), never a copy of it.
  const standings = await Promise.all(rows.map((row) => portalStanding(db, row.id)));
  return rows.map((row, i) => {
    const figure = figures.get(row.id)!;
    const standing = standings[i]!;
    return {
      _id: row.id,
      name: row.name,
      owner: {
        _id: row.owner_id,
        email: row.owner_email,
        firstName: row.owner_first_name,
        lastName: row.owner_last_name,
      },
      plan: standing.plan,
      standing: standing.standing,
      current: standing.current,
      lockCount: figure.lockCount,
      peopleCount: figure.peopleCount,
      lastActivityAt: figure.lastActivityAt,
      reseller: figure.reseller,
      createdAt: toIso(row.created_at),
    };
  });
}

/** GET system/portals: every portal, searched by its name or its owner's email. */
export async function listPlatformPortals(
  db: Database,
  query: PlatformPortalsQuery,
): Promise<{ items: PlatformPortal[]; total: number }> {
  const { rows, total } = await listPortals(db, query);
  return { items: await presentPortals(db, rows), total };
}

/** The portal with its owner, or a 404. */
async function requirePortalRow(db: Database, portalId: string): Promise<PortalWithOwnerRow> {
  const row = await findPortalWithOwner(db, portalId);
  if (!row) throw AppError.notFound('Portal');
  return row;
}

/** GET system/portals/{portalId}: the portal, its admins, locks, recent changes and open problems. */
export async function getPlatformPortal(db: Database, portalId: string): Promise<PlatformPortalDetail> {
  const row = await requirePortalRow(db, portalId);
  const [[portal], admins, locks, changes, problems, supportSessions] = await Promise.all([
    presentPortals(db, [row]),
    portalAdmins(db, portalId),
    portalLockStates(db, portalId),
    recentChanges(db, portalId),
    portalProblemCounts(db, portalId),
    activeSupportSessions(db, portalId),
  ]);
  const listed: PlatformPortalDetail['problems'] = [];
  if (!portal!.current && portal!.plan !== 'free') {
    listed.push({
      kind: 'lapsed',
      title: 'Plan not paid up',
      detail: `The ${portal!.plan} plan is ${portal!.standing.replace('_', ' ')}: no locks or people can be added.`,
    });
  }
  if (locks.offline > 0)
    listed.push({
      kind: 'locks_offline',
      title: `${locks.offline} of ${locks.online + locks.offline} locks offline`,
      detail: 'Offline locks keep their last credential set and report again when they reconnect.',
    });
  if (problems.failedMail > 0)
    listed.push({
      kind: 'mail_failed',
      title: `${problems.failedMail} mail${problems.failedMail === 1 ? '' : 's'} failed this week`,
      detail: 'The sender gave up after its retries; retry them from Background work.',
    });
  if (problems.failingFeeds > 0)
    listed.push({
      kind: 'feed_failing',
      title: `${problems.failingFeeds} calendar feed${problems.failingFeeds === 1 ? '' : 's'} failing`,
      detail: 'The last read of an imported calendar failed; read it again from Background work.',
    });
  if (problems.staffAlerts > 0)
    listed.push({
      kind: 'staff_alert',
      title: `${problems.staffAlerts} payment alert${problems.staffAlerts === 1 ? '' : 's'} this week`,
      detail: 'Failed payments or webhooks about this portal (Developer tools, Payments).',
    });
  if (problems.syncPending > 0)
    listed.push({
      kind: 'sync_pending',
      title: `${problems.syncPending} lock${problems.syncPending === 1 ? '' : 's'} not yet in sync`,
      detail: 'Their confirmed credential set is behind the one they should hold.',
    });
  return {
    ...portal!,
    timeZone: row.time_zone,
    admins: admins.map((admin) => ({
      _id: admin.id,
      email: admin.email,
      firstName: admin.first_name,
      lastName: admin.last_name,
      owner: admin.id === admin.owner_user_id,
    })),
    locksOnline: locks.online,
    locksOffline: locks.offline,
    recentChanges: changes.map((change) => ({
      _id: change.id,
      action: change.action,
      entityType: change.entity_type,
      actorEmail: change.actor_email,
      createdAt: toIso(change.created_at),
    })),
    problems: listed,
    supportSessions,
  };
}

/** Platform staff switch a flag for the whole deployment (audited in the platform's log). */
export async function switchDeploymentFlag(
  db: Database,
  context: StaffContext,
  input: FeatureFlagInput,
): Promise<FeatureFlagState[]> {
  const before = (await featureFlagStates(db, null)).find((flag) => flag.id === input.flag)!;
  await setDeploymentFlag(db, input.flag, input.enabled, context.actorUserId);
  await appendPlatformAudit(db, {
    ...context,
    action: 'feature_flag.deployment',
    entityType: 'feature_flag',
    entityId: input.flag,
    before: { enabled: before.deployment },
    after: { enabled: input.enabled },
  });
  return featureFlagStates(db, null);
}

/** Platform staff switch a flag for one portal (audited in the portal's log, where its admins see it). */
export async function switchPortalFlag(
  db: Database,
  context: StaffContext,
  portalId: string,
  input: FeatureFlagInput,
): Promise<FeatureFlagState[]> {
  await requirePortalRow(db, portalId);
  const before = (await featureFlagStates(db, portalId)).find((flag) => flag.id === input.flag)!;
  await setPortalFlag(db, portalId, input.flag, input.enabled, context.actorUserId);
  const change = {
    action: 'feature_flag.portal',
    entityType: 'feature_flag',
    entityId: input.flag,
    before: { enabled: before.portal },
    after: { enabled: input.enabled },
  } satisfies AuditChange;
  await recordChange(db, { portalId, ...context }, change);
  await appendPlatformAudit(db, { ...context, portalId, ...change });
  return featureFlagStates(db, portalId);
}

/** The portal's flags, or a 404 for an unknown portal. */
export async function portalFlagStates(db: Database, portalId: string): Promise<FeatureFlagState[]> {
  await requirePortalRow(db, portalId);
  return featureFlagStates(db, portalId);
}

/** POST system/work/retry: a failed mail due now, a failing feed read now; audited. */
export async function retryWork(
  db: Database,
  ical: Pick<IcalDeps, 'syncNowSeconds'>,
  context: StaffContext,
  input: WorkRetryInput,
): Promise<void> {
  if (input.kind === 'mail') {
    const mail = await findMail(db, input.id);
    if (!mail) throw AppError.notFound('Mail');
    if (mail.sent_at) throw AppError.conflict('This mail was sent already');
    if (!(await makeMailDueNow(db, mail.id))) throw AppError.conflict('This mail was sent already');
    const change = {
      action: 'mail.retry',
      entityType: 'mail',
      entityId: mail.id,
      before: { attempts: mail.attempts, failedAt: toIso(mail.failed_at) },
      after: { to: mail.to_address, subject: mail.subject },
    } satisfies AuditChange;
    if (mail.portal_id) await recordChange(db, { portalId: mail.portal_id, ...context }, change);
    await appendPlatformAudit(db, { ...context, portalId: mail.portal_id, ...change });
    return;
  }
  const feed = await findFeed(db, input.id);
  if (!feed) throw AppError.notFound('Calendar feed');
  // The calendars' own "sync now": its once-a-minute limit and its audit-free queueing apply.
  await requestSync(db, ical, { portalId: feed.portal_id, ...context }, feed.listing_id, feed.id, false);
  const change = {
    action: 'ical_feed.sync_now',
    entityType: 'ical_feed',
    entityId: feed.id,
    after: { name: feed.name, listingId: feed.listing_id },
  } satisfies AuditChange;
  await recordChange(db, { portalId: feed.portal_id, ...context }, change);
  await appendPlatformAudit(db, { ...context, portalId: feed.portal_id, ...change });
}
