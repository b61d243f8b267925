import type { Database } from '../../db/database';
import { onDomainEvent } from '../../base/events/domain-events';
import '../device-link/device-link-events';
import '../stays/stay-events';
import { findDesiredSet } from '../device-link/credential-set-bodies';
import { announceWebhookEvents, portalHasEndpoints, type WebhookEvent } from './webhook-events';

// What the features below announce, turned into webhook events (WEBHOOK_EVENT_TYPES). Each
// listener first asks the cache whether the portal has an enabled endpoint, so the device link's
// batches cost nothing for the portals that have none.

function byPortal<T extends { portalId: string }>(items: readonly T[]): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const item of items) {
    const list = map.get(item.portalId);
    if (list) list.push(item);
    else map.set(item.portalId, [item]);
  }
  return map;
}

async function lockNames(db: Database, portalId: string, deviceIds: readonly string[]) {
  const rows = await db
    .selectFrom('devices')
    .select(['id', 'name', 'online', 'battery', 'low_battery_level', 'last_seen_at'])
    .where('portal_id', '=', portalId)
    .where('id', 'in', [...new Set(deviceIds)])
    .execute();
  return new Map(rows.map((row) => [row.id, row]));
}

/** credential.confirmed / credential.rejected: what changed in what each lock says of each credential. */
async function credentialEvents(
  db: Database,
  portalId: string,
  acks: readonly {
    deviceId: string;
    version: number;
    rejected: { credentialId: string; reason: string }[];
  }[],
  now: Date,
) {
  const locks = await lockNames(
    db,
    portalId,
    acks.map((a) => a.deviceId),
  );
  const events: WebhookEvent[] = [];
  for (const ack of acks) {
    const lock = locks.get(ack.deviceId);
    if (!lock) continue;
    const set = await findDesiredSet(db, portalId, ack.deviceId);
    const entries = set && set.version === ack.version ? set.set.entries : [];
    const refused = new Map(ack.rejected.map((r) => [r.credentialId, r.reason]));
    const byId = new Map(entries.map((entry) => [entry.credentialId, entry]));
    for (const credentialId of refused.keys())
      if (!byId.has(credentialId)) byId.set(credentialId, undefined as never);
    const known = new Map(
      (
        await db
          .selectFrom('webhook_credential_states')
          .select(['credential_id', 'state'])
          .where('portal_id', '=', portalId)
          .where('device_id', '=', ack.deviceId)
          .execute()
      ).map((row) => [row.credential_id, row.state]),
    );
    const lockRef = { _id: lock.id, name: lock.name };
    const changed: { credential_id: string; state: string }[] = [];
    for (const [credentialId, entry] of byId) {
      const reason = refused.get(credentialId);
      const state = reason ?? 'confirmed';
      if (known.get(credentialId) === state) continue;
      changed.push({ credential_id: credentialId, state });
      const credential = { _id: credentialId, kind: entry?.kind ?? null };
      const person = entry?.userId ? { _id: entry.userId } : null;
      events.push(
        reason
          ? {
              type: 'credential.rejected',
              data: { lock: lockRef, credential, person, version: ack.version, reason },
            }
          : {
              type: 'credential.confirmed',
              data: { lock: lockRef, credential, person, version: ack.version },
            },
      );
    }
    // Credentials the lock no longer holds are forgotten (a later one is news again).
    const gone = [...known.keys()].filter((id) => !byId.has(id));
    if (set && set.version === ack.version && gone.length > 0) {
      await db
        .deleteFrom('webhook_credential_states')
        .where('device_id', '=', ack.deviceId)
        .where('credential_id', 'in', gone)
        .execute();
    }
    for (const row of changed) {
      await db
        .insertInto('webhook_credential_states')
        .values({ portal_id: portalId, device_id: ack.deviceId, ...row })
        .onConflict((oc) => oc.columns(['device_id', 'credential_id']).doUpdateSet({ state: row.state }))
        .execute();
    }
  }
  await announceWebhookEvents(db, portalId, events, now);
}

let registered = false;

/** Registers the listeners once per process (each event brings the database it runs against). */
export function registerWebhookListeners(): void {
  if (registered) return;
  registered = true;

  onDomainEvent('LockEventsStored', async (db, { events, now }) => {
    for (const [portalId, items] of byPortal(events)) {
      if (!(await portalHasEndpoints(db, portalId, now.getTime()))) continue;
      await announceWebhookEvents(
        db,
        portalId,
        items.map(({ event }) => ({
          type: 'lock.event' as const,
          data: {
            eventId: event.eventId,
            lock: event.device,
            event: event.type,
            credential: event.credentialId ? { _id: event.credentialId, kind: event.method } : null,
            person: event.user,
            reason: event.reason,
            occurredAt: event.occurredAt,
          },
        })),
        now,
      );
    }
  });

  onDomainEvent('CredentialsAcked', async (db, { acks, now }) => {
    for (const [portalId, items] of byPortal(acks)) {
      if (!(await portalHasEndpoints(db, portalId, now.getTime()))) continue;
      await credentialEvents(db, portalId, items, now);
    }
  });

  onDomainEvent('StayChanged', async (db, { stay, change, now }) => {
    if (!(await portalHasEndpoints(db, stay.portal_id, now.getTime()))) return;
    if (change === 'access_ready') {
      const locks = await db
        .selectFrom('listing_locks')
        .innerJoin('devices', 'devices.id', 'listing_locks.device_id')
        .select(['devices.id', 'devices.name'])
        .where('listing_locks.listing_id', '=', stay.listing_id)
        .where('devices.portal_id', '=', stay.portal_id)
        .orderBy('devices.name')
        .execute();
      await announceWebhookEvents(
        db,
        stay.portal_id,
        [
          {
            type: 'stay.access_ready',
            data: {
              stay: { _id: stay.id, listingId: stay.listing_id },
              locks: locks.map((lock) => ({ _id: lock.id, name: lock.name })),
            },
          },
        ],
        now,
      );
      return;
    }
    const type =
      change === 'requested' ? 'stay.requested' : change === 'approved' ? 'stay.approved' : 'stay.cancelled';
    const data = {
      stay: {
        _id: stay.id,
        listingId: stay.listing_id,
        from: stay.start_date,
        to: stay.end_date,
        status: change,
      },
    };
    await announceWebhookEvents(db, stay.portal_id, [{ type, data }], now);
  });

  onDomainEvent('LockStatusChanged', async (db, { portalId, deviceId, previous, now }) => {
    if (!(await portalHasEndpoints(db, portalId, now.getTime()))) return;
    const lock = (await lockNames(db, portalId, [deviceId])).get(deviceId);
    if (!lock) return;
    const lockRef = { _id: lock.id, name: lock.name };
    const online = Number(lock.online) === 1;
    const events: WebhookEvent[] = [];
    if (previous.online && !online)
      events.push({
        type: 'lock.offline',
        data: {
          lock: lockRef,
          lastSeenAt: lock.last_seen_at ? new Date(lock.last_seen_at).toISOString() : null,
        },
      });
    if (!previous.online && online) events.push({ type: 'lock.online', data: { lock: lockRef } });
    if (
      online &&
      lock.battery !== null &&
      lock.battery <= lock.low_battery_level &&
      (previous.battery === null || previous.battery > lock.low_battery_level)
    )
      events.push({ type: 'lock.battery_low', data: { lock: lockRef, battery: lock.battery } });
    await announceWebhookEvents(db, portalId, events, now);
  });
}
