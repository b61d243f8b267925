import crypto from 'node:crypto';
import type { Insertable } from 'kysely';
import type { Database } from '../db/database';
import type { DeviceEventsTable } from '../db/schema';
import { nowIso } from '../db/mappers';
import { findUserByEmail } from '../base/identity/users.repository';
import { insertDeviceEvents } from '../features/events/events.repository';
import { createSchedule } from '../features/reports/report-schedules';

/** The demo's locks and people that the seeded entries name (Demo Apartments). */
const ENTRY_PATTERN = [
  { lock: 'Main entrance', person: 'sam', method: 'code', hours: [7, 8, 18, 19, 22] },
  { lock: 'Flat 1.2', person: 'sam', method: 'remote', hours: [8, 19] },
  { lock: 'Main entrance', person: 'ana', method: 'rfid', hours: [9, 11] },
  { lock: 'Lisbon studio', person: 'ana', method: 'code', hours: [10] },
  { lock: 'Main entrance', person: 'ben', method: 'code', hours: [13] },
] as const;

/** A small repeatable shuffle, so the demo's numbers are the same on every first start. */
function dice(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

/**
 * The reports demo (issue 20, item 5): three weeks of entries at Demo Apartments' locks (openings
 * by Sam, Ana and Ben, some refused: Ana outside her mornings, an unknown card), stored as the
 * device link stores lock events, so the entries report and its charts have something to show;
 * and the entries report mailed to the owner every week. Runs after the demo portal exists.
 */
export async function seedDemoReports(db: Database, ownerEmail: string, now = new Date()): Promise<void> {
  const owner = await findUserByEmail(db, ownerEmail);
  if (!owner) return;
  const portal = await db
    .selectFrom('portals')
    .select('id')
    .where('owner_user_id', '=', owner.id)
    .executeTakeFirst();
  if (!portal) return;
  const locks = await db
    .selectFrom('devices')
    .select(['id', 'name'])
    .where('portal_id', '=', portal.id)
    .execute();
  const people = await db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['u.id', 'u.email'])
    .where('m.portal_id', '=', portal.id)
    .execute();
  const lockId = new Map(locks.map((lock) => [lock.name, lock.id]));
  const personId = (name: string) =>
    people.find((p) => p.email.startsWith(name === 'sam' ? 'user@' : `${name}.`))?.id;
  const roll = dice(20_261_127);
  const rows: Insertable<DeviceEventsTable>[] = [];
  for (let daysAgo = 21; daysAgo >= 1; daysAgo--) {
    const day = new Date(now.getTime() - daysAgo * 86_400_000);
    for (const entry of ENTRY_PATTERN) {
      const deviceId = lockId.get(entry.lock);
      const userId = personId(entry.person);
      if (!deviceId || !userId) continue;
      for (const hour of entry.hours) {
        if (roll() < 0.3) continue; // not every day alike
        const at = new Date(day);
        at.setUTCHours(hour - 1, Math.floor(roll() * 60), Math.floor(roll() * 60), 0);
        // Ana after her mornings, now and then: refused, outside her schedule.
        const refused = entry.person === 'ana' && roll() < 0.2;
        rows.push({
          id: crypto.randomUUID(),
          portal_id: portal.id,
          device_id: deviceId,
          event_id: `demo-${crypto.randomUUID()}`,
          type: refused ? ('denied' as const) : ('unlock' as const),
          method: entry.method,
          credential_id: null,
          user_id: userId,
          reason: refused ? ('outside_schedule' as const) : null,
          occurred_at: at.toISOString(),
          received_at: at.toISOString(),
        });
      }
    }
    // An unknown card at the main entrance every few days.
    const main = lockId.get('Main entrance');
    if (main && daysAgo % 4 === 0) {
      const at = new Date(day);
      at.setUTCHours(1, 17, 0, 0);
      rows.push({
        id: crypto.randomUUID(),
        portal_id: portal.id,
        device_id: main,
        event_id: `demo-${crypto.randomUUID()}`,
        type: 'denied' as const,
        method: 'rfid',
        credential_id: null,
        user_id: null,
        reason: 'unknown_credential' as const,
        occurred_at: at.toISOString(),
        received_at: at.toISOString(),
      });
    }
  }
  await db.transaction().execute((trx) => insertDeviceEvents(trx, rows));
  await createSchedule(
    db,
    { portalId: portal.id, actorUserId: owner.id, ip: '127.0.0.1' },
    { kind: 'entries', frequency: 'weekly' },
    new Date(nowIso()),
  );
}
