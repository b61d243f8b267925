import {
  formatMoney,
  PLAN_IDS,
  PLANS,
  roundDiv,
  type BillLine,
  type BillLock,
  type PlanId,
} from '@latchkey/shared';
import { planAt, type PlanPeriod } from './plan-history';

// A month's bill from what the portal had: for each UTC day of the month, the locks that existed at
// the end of that day and the plan in force then. Each plan's line is its billable lock-days priced
// pro rata: round(lock-days × price per lock-month ÷ days in the month), halves up, once per line.
// Pure: the service reads the locks and plan history and passes them in.

const DAY_MS = 24 * 60 * 60 * 1000;

/** A lock as billing sees it: when it was added and, if so, deleted. */
export interface BilledDevice {
  id: string;
  name: string;
  createdAt: string;
  deletedAt: string | null;
}

/** The first instant of a month (UTC) and of the month after. */
export function monthBounds(year: number, month: number): { start: Date; end: Date; days: number } {
  const start = new Date(Date.UTC(year, month - 1, 1));
  const end = new Date(Date.UTC(year, month, 1));
  return { start, end, days: Math.round((end.getTime() - start.getTime()) / DAY_MS) };
}

/** The month (UTC) an instant falls in. */
export function monthOf(instant: Date): { year: number; month: number } {
  return { year: instant.getUTCFullYear(), month: instant.getUTCMonth() + 1 };
}

/** The month before a month. */
export function previousMonth({ year, month }: { year: number; month: number }) {
  return month === 1 ? { year: year - 1, month: 12 } : { year, month: month - 1 };
}

function isoDay(instant: Date): string {
  return instant.toISOString().slice(0, 10);
}

/** Which days of the month to count, and up to which instant the portal's state is known. */
export interface BillWindow {
  year: number;
  month: number;
  /** Count days 1 … lastDay (the month's length for a whole month, today for "so far"). */
  lastDay: number;
  /** State after this instant is not known yet: days ending later are read as of it. */
  knownUntil: Date;
}

/** The lines of a bill and the reseller's wholesale cost behind them. */
export interface ComputedBill {
  lines: BillLine[];
  netMinor: number;
  /** What a reseller pays for these lock-days (PLANS[plan].wholesalePerLockMonth, pro rata). */
  wholesaleMinor: number;
}

interface LineTally {
  plan: PlanId;
  planDays: number;
  lockDays: number;
  includedLockDays: number;
  locks: Map<string, BillLock>;
}

/**
 * Computes a month's lines. A lock counts on a day when it existed at the end of that day (added
 * that day: counts; deleted that day: does not); the day is priced on the plan in force at its
 * end. Days ending after `knownUntil` are read as of `knownUntil` (today so far, or a projection).
 */
export function computeBill(
  window: BillWindow,
  devices: readonly BilledDevice[],
  periods: readonly PlanPeriod[],
  currency: string,
): ComputedBill {
  const { start, days } = monthBounds(window.year, window.month);
  const lastDay = Math.min(Math.max(window.lastDay, 0), days);
  const tallies = new Map<PlanId, LineTally>();
  for (let day = 0; day < lastDay; day++) {
    const dayStart = new Date(start.getTime() + day * DAY_MS);
    const dayEnd = new Date(dayStart.getTime() + DAY_MS);
    // The last moment of the day, or the last moment known.
    const at = new Date(Math.min(dayEnd.getTime(), window.knownUntil.getTime()) - 1).toISOString();
    const plan = planAt(periods, at);
    const present = devices.filter((d) => d.createdAt <= at && (d.deletedAt === null || d.deletedAt > at));
    let tally = tallies.get(plan);
    if (!tally) {
      tally = { plan, planDays: 0, lockDays: 0, includedLockDays: 0, locks: new Map() };
      tallies.set(plan, tally);
    }
    tally.planDays += 1;
    tally.lockDays += present.length;
    tally.includedLockDays += Math.min(present.length, PLANS[plan].includedLocks);
    const date = isoDay(dayStart);
    for (const device of present) {
      const lock = tally.locks.get(device.id);
      if (lock) {
        lock.days += 1;
        lock.lastDay = date;
      } else {
        tally.locks.set(device.id, {
          deviceId: device.id,
          name: device.name,
          days: 1,
          firstDay: date,
          lastDay: date,
          deleted: device.deletedAt !== null,
        });
      }
    }
  }

  const lines: BillLine[] = [];
  let wholesaleMinor = 0;
  // Lines in the catalogue's order (free, pro, business): the same order on every bill.
  for (const planId of PLAN_IDS) {
    const tally = tallies.get(planId);
    if (!tally) continue;
    const plan = PLANS[planId];
    const billableLockDays = tally.lockDays - tally.includedLockDays;
    const amountMinor = roundDiv(billableLockDays * plan.pricePerLockMonth, days);
    wholesaleMinor += roundDiv(billableLockDays * plan.wholesalePerLockMonth, days);
    lines.push({
      plan: planId,
      planName: plan.name,
      unitPriceMinor: plan.pricePerLockMonth,
      daysInMonth: days,
      planDays: tally.planDays,
      lockDays: tally.lockDays,
      includedLockDays: tally.includedLockDays,
      billableLockDays,
      amountMinor,
      explanation: explain(plan.name, tally, billableLockDays, plan, days, amountMinor, currency),
      locks: [...tally.locks.values()].sort(
        (a, b) => a.firstDay.localeCompare(b.firstDay) || a.name.localeCompare(b.name),
      ),
    });
  }
  return { lines, netMinor: lines.reduce((sum, line) => sum + line.amountMinor, 0), wholesaleMinor };
}

function explain(
  planName: string,
  tally: LineTally,
  billableLockDays: number,
  plan: (typeof PLANS)[PlanId],
  days: number,
  amountMinor: number,
  currency: string,
): string {
  const lockDays = `${tally.lockDays} lock-day${tally.lockDays === 1 ? '' : 's'} over ${tally.planDays} day${tally.planDays === 1 ? '' : 's'} on ${planName}`;
  const included =
    tally.includedLockDays > 0
      ? `, ${tally.includedLockDays} included (${plan.includedLocks} lock${plan.includedLocks === 1 ? '' : 's'} a day)`
      : '';
  const price = `${billableLockDays} × ${formatMoney(plan.pricePerLockMonth, currency)} per lock-month ÷ ${days} days = ${formatMoney(amountMinor, currency)}`;
  return `${lockDays}${included}; ${price}`;
}
