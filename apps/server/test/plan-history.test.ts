import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentPlan, listPlanPeriods, planAt, recordPlanChange } from '../src/features/billing/plan-history';
import { TestApp } from './test-app';

let t: TestApp;
beforeAll(async () => {
  t = await TestApp.start();
});
afterAll(() => t.close());

const ALL_TIME = ['1900-01-01T00:00:00.000Z', '9999-01-01T00:00:00.000Z'] as const;

describe('plan history', () => {
  it('starts on the free plan and records each change as a period', async () => {
    const { portalId } = await t.signUp();
    const db = t.app.db;
    expect(await currentPlan(db, portalId)).toBe('free');
    expect(await recordPlanChange(db, portalId, 'free', '2026-01-01T00:00:00Z')).toBe(false);
    expect(await recordPlanChange(db, portalId, 'pro', '2026-03-10T12:00:00Z')).toBe(true);
    expect(await recordPlanChange(db, portalId, 'pro', '2026-03-11T00:00:00Z')).toBe(false);
    expect(await recordPlanChange(db, portalId, 'free', '2026-05-01T00:00:00Z')).toBe(true);
    const periods = await listPlanPeriods(db, portalId, ...ALL_TIME);
    // Every word is kept (so late ones find their place), each ending where the next begins.
    expect(periods).toEqual([
      { plan: 'free', startsAt: '2026-01-01T00:00:00.000Z', endsAt: '2026-03-10T12:00:00.000Z' },
      { plan: 'pro', startsAt: '2026-03-10T12:00:00.000Z', endsAt: '2026-03-11T00:00:00.000Z' },
      { plan: 'pro', startsAt: '2026-03-11T00:00:00.000Z', endsAt: '2026-05-01T00:00:00.000Z' },
      { plan: 'free', startsAt: '2026-05-01T00:00:00.000Z', endsAt: null },
    ]);
    expect(planAt(periods, '2026-03-10T11:59:59.999Z')).toBe('free');
    expect(planAt(periods, '2026-04-30T23:59:59.999Z')).toBe('pro');
    expect(await currentPlan(db, portalId)).toBe('free');
    expect(await currentPlan(db, portalId, new Date('2026-04-01T00:00:00Z'))).toBe('pro');

    // Each change is in the portal's change log, as a system change when nobody made it.
    const entries = await db
      .selectFrom('audit_log')
      .select(['action', 'actor_user_id', 'after_json'])
      .where('portal_id', '=', portalId)
      .where('action', '=', 'plan.change')
      .execute();
    expect(entries).toHaveLength(2);
    expect(entries.every((e) => e.actor_user_id === null)).toBe(true);
  });

  it('puts a change that arrives late in its place without overriding later ones', async () => {
    const { portalId } = await t.signUp();
    const db = t.app.db;
    await recordPlanChange(db, portalId, 'business', '2026-06-15T00:00:00Z');
    // An older event (pro from June 1st) arrives after the newer one.
    await recordPlanChange(db, portalId, 'pro', '2026-06-01T00:00:00Z');
    // And a change inside the pro period.
    await recordPlanChange(db, portalId, 'free', '2026-06-10T00:00:00Z');
    expect(await listPlanPeriods(db, portalId, ...ALL_TIME)).toEqual([
      { plan: 'pro', startsAt: '2026-06-01T00:00:00.000Z', endsAt: '2026-06-10T00:00:00.000Z' },
      { plan: 'free', startsAt: '2026-06-10T00:00:00.000Z', endsAt: '2026-06-15T00:00:00.000Z' },
      { plan: 'business', startsAt: '2026-06-15T00:00:00.000Z', endsAt: null },
    ]);
    // A change at the instant a period starts replaces that period's plan.
    await recordPlanChange(db, portalId, 'pro', '2026-06-15T00:00:00Z');
    expect(await currentPlan(db, portalId)).toBe('pro');
    expect(
      await listPlanPeriods(db, portalId, '2026-06-12T00:00:00.000Z', '2026-06-20T00:00:00.000Z'),
    ).toEqual([
      { plan: 'free', startsAt: '2026-06-10T00:00:00.000Z', endsAt: '2026-06-15T00:00:00.000Z' },
      { plan: 'pro', startsAt: '2026-06-15T00:00:00.000Z', endsAt: null },
    ]);
  });

  it('keeps every change in the order it happened when changes for one portal arrive at once', async () => {
    const { portalId } = await t.signUp();
    const db = t.app.db;
    const instants = Array.from({ length: 8 }, (_, i) => `2026-07-0${i + 1}T00:00:00.000Z`);
    await Promise.all(
      instants.map((at, i) => recordPlanChange(db, portalId, i % 2 === 0 ? 'pro' : 'business', at)),
    );
    const periods = await listPlanPeriods(db, portalId, ...ALL_TIME);
    expect(periods.map((p) => p.startsAt)).toEqual(instants);
    for (let i = 1; i < periods.length; i++) expect(periods[i - 1]!.endsAt).toBe(periods[i]!.startsAt);
    expect(periods.at(-1)!.endsAt).toBeNull();
    expect(periods.map((p) => p.plan)).toEqual(instants.map((_, i) => (i % 2 === 0 ? 'pro' : 'business')));
  });
});
