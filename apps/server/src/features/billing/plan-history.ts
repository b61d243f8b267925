import crypto from 'node:crypto';
import type { PlanId } from '@latchkey/shared';
import { PostgresAdapter } from 'kysely';
import type { Database } from '../../db/database';
import { nowIso, toIso } from '../../db/mappers';
import type { PortalPlanPeriodRow } from '../../db/schema';
import { appendAuditEntry } from '../../base/audit/audit.repository';

// Plan history (`portal_plan_periods`): which plan a portal was on when. Bills price each day with
// the plan in force at the end of that day. Before a portal's first period it is on the free plan.
// Each recorded change is a row (the plan from `starts_at`); its `ends_at` is the next change's
// `starts_at`, kept so a month's periods are one indexed range query. Periods never overlap.

/** The plan a portal is on before any period says otherwise. */
export const DEFAULT_PLAN: PlanId = 'free';

/** A period of plan history as the bill computation uses it. */
export interface PlanPeriod {
  plan: PlanId;
  startsAt: string;
  /** Null: still in force. */
  endsAt: string | null;
}

function toPeriod(row: PortalPlanPeriodRow): PlanPeriod {
  return { plan: row.plan, startsAt: toIso(row.starts_at), endsAt: toIso(row.ends_at) };
}

function isPostgres(db: Database): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

function inTransaction<T>(db: Database, work: (trx: Database) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}

/** Who made a plan change, for the change log; omitted for the payment provider's own changes. */
export interface PlanChangeActor {
  actorUserId: string | null;
  ip?: string | null;
}

/**
 * Records that a portal is on `plan` from `at` (an upgrade, a downgrade, a lapse to free) until the
 * next recorded change. Every change is kept as a point on the portal's timeline, so changes that
 * arrive out of order (a provider's webhooks) end up in the order they happened. Answers whether
 * the plan in force at `at` changed; such a change is audited as `plan.change`. Runs in the
 * caller's transaction when given one.
 */
export async function recordPlanChange(
  db: Database,
  portalId: string,
  plan: PlanId,
  at: Date | string,
  actor: PlanChangeActor = { actorUserId: null },
): Promise<boolean> {
  const atIso = new Date(at).toISOString();
  return inTransaction(db, async (trx) => {
    // Two changes for one portal at once (two servers, two webhooks) take turns on PostgreSQL; a
    // SQLite transaction holds the only connection already.
    if (isPostgres(trx)) {
      await trx.selectFrom('portals').select('id').where('id', '=', portalId).forUpdate().execute();
    }
    const rows = await trx
      .selectFrom('portal_plan_periods')
      .selectAll()
      .where('portal_id', '=', portalId)
      .orderBy('starts_at')
      .execute();
    const periods = rows.map(toPeriod);
    const before = planAt(periods, atIso);
    const sameInstant = rows.find((row) => toIso(row.starts_at) === atIso);
    if (sameInstant) {
      // A second word on the same instant: the latest one counts.
      await trx.updateTable('portal_plan_periods').set({ plan }).where('id', '=', sameInstant.id).execute();
    } else {
      const previous = rows.filter((row) => toIso(row.starts_at) < atIso).at(-1);
      const next = rows.find((row) => toIso(row.starts_at) > atIso);
      if (previous) {
        await trx
          .updateTable('portal_plan_periods')
          .set({ ends_at: atIso })
          .where('id', '=', previous.id)
          .execute();
      }
      await trx
        .insertInto('portal_plan_periods')
        .values({
          id: crypto.randomUUID(),
          portal_id: portalId,
          plan,
          starts_at: atIso,
          ends_at: next ? toIso(next.starts_at) : null,
          created_at: nowIso(),
        })
        .execute();
    }
    if (before === plan) return false;
    await appendAuditEntry(trx, portalId, {
      actorUserId: actor.actorUserId,
      ip: actor.ip ?? null,
      action: 'plan.change',
      entityType: 'plan',
      entityId: portalId,
      before: { plan: before },
      after: { plan, from: atIso },
    });
    return true;
  });
}

/** A portal's plan periods that overlap [from, until), oldest first. */
export async function listPlanPeriods(
  db: Database,
  portalId: string,
  from: string,
  until: string,
): Promise<PlanPeriod[]> {
  const rows = await db
    .selectFrom('portal_plan_periods')
    .selectAll()
    .where('portal_id', '=', portalId)
    .where('starts_at', '<', until)
    .where((eb) => eb.or([eb('ends_at', 'is', null), eb('ends_at', '>', from)]))
    .orderBy('starts_at')
    .execute();
  return rows.map(toPeriod);
}

/** The plan in force at an instant, from periods that cover it (DEFAULT_PLAN where none does). */
export function planAt(periods: readonly PlanPeriod[], instant: string): PlanId {
  const period = periods.find((p) => p.startsAt <= instant && (p.endsAt === null || p.endsAt > instant));
  return period?.plan ?? DEFAULT_PLAN;
}

/** The plan a portal is on now (or at `at`). */
export async function currentPlan(db: Database, portalId: string, at: Date = new Date()): Promise<PlanId> {
  const instant = at.toISOString();
  const periods = await listPlanPeriods(db, portalId, instant, new Date(at.getTime() + 1).toISOString());
  return planAt(periods, instant);
}
