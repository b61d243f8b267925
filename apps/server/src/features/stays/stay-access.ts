import crypto from 'node:crypto';
import {
  accessListWindow,
  LOCK_MODELS,
  stayAccessWindow,
  type AccessWindow,
  type LockCapacity,
  type StayAccess,
  type StayWindowInput,
} from '@latchkey/shared';
import type { Database } from '../../db/database';
import { nowIso, toIso } from '../../db/mappers';
import type { DeviceRow, ListingAccessListRow, ListingRow, StayAccessRow, StayRow } from '../../db/schema';
import { AppError } from '../../base/http/errors';
import { reportedCapabilities } from '../devices/device.presenter';
import { loadCredentialSets } from '../access/credential-sets';
import type { Touch } from '../../base/access-changes/touched-locks';
import { findListingEvenDeleted, listAccessList, listLocksOfListing } from '../listings/listings.repository';
import { generateFreeCode } from '../credentials/code-rules';
import {
  bindCredentialToDevice,
  findCredential,
  insertCredential,
  revokeCredential,
  unbindCredentialFromDevice,
  updateCredential,
} from '../credentials/credentials.repository';
import {
  insertStayAccess,
  listBindings,
  listStayAccess,
  readSyncFacts,
  updateStay,
  updateStayAccess,
} from './stays.repository';
import { listingTimeZone } from '../listings/listing-clock';

/**
 * A stay's access on its listing's locks (docs/decisions.md "Rentals"): the guest's code and QR
 * entry, and a code per access-list holder (the cleaner) around the stay. Each is one credential of
 * holder type `guest` with variant `stay`, bound to every lock of the listing, valid for exactly its
 * window; the credential set builder places it on those locks with that validity. Every change goes
 * through `reconcileStayAccess`, which makes the credentials match the stay and the listing as they
 * are now and says which locks it touched, so they are recomputed at once.
 */

/** A stay's check-in and check-out times: its own (a late check-out), else the listing's. */
export function stayTimes(stay: Pick<StayRow, 'check_in_time' | 'check_out_time'>, listing: ListingRow) {
  return {
    checkInTime: stay.check_in_time ?? listing.check_in_time,
    checkOutTime: stay.check_out_time ?? listing.check_out_time,
  };
}

export function windowInput(
  stay: Pick<StayRow, 'start_date' | 'end_date' | 'check_in_time' | 'check_out_time'>,
  listing: ListingRow,
  timeZone: string,
): StayWindowInput {
  return {
    startDate: stay.start_date,
    endDate: stay.end_date,
    ...stayTimes(stay, listing),
    initialMinutes: listing.initial_minutes,
    startTime: listing.start_time,
    timeZone,
  };
}

/** Everything a stay's access is derived from. */
export interface StayFacts {
  stay: StayRow;
  listing: ListingRow;
  locks: DeviceRow[];
  accessList: ListingAccessListRow[];
}

interface WantedAccess {
  holder: 'guest' | 'access_list';
  accessListId: string | null;
  name: string;
  window: AccessWindow;
}

const keyOf = (holder: string, accessListId: string | null) => `${holder} ${accessListId ?? ''}`;

/** The access a stay should have now: none unless approved; nothing whose window has ended. */
function wantedAccess(facts: StayFacts, now: Date): WantedAccess[] {
  const { stay, listing, locks } = facts;
  if (stay.state !== 'approved' || locks.length === 0) return [];
  const input = windowInput(stay, listing, listingTimeZone(locks));
  const wanted: WantedAccess[] = [
    { holder: 'guest', accessListId: null, name: stay.guest_name, window: stayAccessWindow(input) },
    ...facts.accessList.map((entry) => ({
      holder: 'access_list' as const,
      accessListId: entry.id,
      name: entry.name,
      window: accessListWindow(input, {
        anchor: entry.anchor,
        startOffset: entry.start_offset,
        endOffset: entry.end_offset,
      }),
    })),
  ];
  return wanted.filter((access) => access.window.until > now);
}

/** The length of a code every keypad of the listing takes (6 digits where they allow it). */
function codeLengthFor(locks: readonly DeviceRow[]): number {
  let min = 6;
  let max = 12;
  for (const lock of locks) {
    const limits = LOCK_MODELS[lock.model].codeLength;
    if (!limits) continue;
    min = Math.max(min, limits.min);
    max = Math.min(max, limits.max);
  }
  return Math.min(min, max);
}

const hasKeypad = (lock: DeviceRow) => LOCK_MODELS[lock.model].keypad;

/** Binds a credential to exactly these locks; answers the locks it was bound to before. */
async function bindExactly(
  trx: Database,
  portalId: string,
  credentialId: string,
  deviceIds: readonly string[],
  boundNow: readonly string[],
): Promise<void> {
  const wanted = new Set(deviceIds);
  for (const deviceId of boundNow) {
    if (!wanted.has(deviceId)) await unbindCredentialFromDevice(trx, portalId, credentialId, deviceId);
  }
  for (const deviceId of deviceIds) {
    if (!boundNow.includes(deviceId)) await bindCredentialToDevice(trx, portalId, credentialId, deviceId);
  }
}

/**
 * Makes a stay's credentials match the stay, its listing's locks, times and access list: new
 * access gets fresh codes (free in the portal, so no two holders ever share one on a lock), changed
 * windows move (the guest keeps their code), access no longer wanted is revoked. Records every lock
 * it touched (before and after) through `touch`. Answers whether anything changed; then the stay's
 * access generation is raised and it waits for its locks again.
 */
export async function reconcileStayAccess(
  trx: Database,
  touch: Touch,
  facts: StayFacts,
  now = new Date(),
): Promise<boolean> {
  const { stay, locks } = facts;
  const portalId = stay.portal_id;
  const existing = (await listStayAccess(trx, portalId, [stay.id])).filter((row) => row.removed_at === null);
  const credentialIds = existing.flatMap((row) => [
    row.credential_id,
    ...(row.qr_credential_id ? [row.qr_credential_id] : []),
  ]);
  const bindings = await listBindings(trx, portalId, credentialIds);
  const boundTo = (credentialId: string) =>
    bindings.filter((b) => b.credential_id === credentialId).map((b) => b.device_id);
  const touched = new Set<string>(bindings.map((b) => b.device_id));
  const keypadLocks = locks.filter(hasKeypad).map((l) => l.id);
  const allLocks = locks.map((l) => l.id);
  for (const id of allLocks) touched.add(id);

  const wanted = wantedAccess(facts, now);
  const wantedKeys = new Set(wanted.map((w) => keyOf(w.holder, w.accessListId)));
  let changed = false;
  const at = nowIso();

  // Access whose window is over goes without raising the generation (nothing new for the guest);
  // anything else (a cancellation, an access-list entry removed) is a change.
  let expired = false;
  for (const row of existing) {
    if (wantedKeys.has(keyOf(row.holder, row.access_list_id))) continue;
    await revokeCredential(trx, portalId, row.credential_id);
    if (row.qr_credential_id) await revokeCredential(trx, portalId, row.qr_credential_id);
    await updateStayAccess(trx, portalId, row.id, { removed_at: at });
    if (new Date(toIso(row.valid_until)) <= now && stay.state === 'approved') expired = true;
    else changed = true;
  }

  for (const access of wanted) {
    const validFrom = access.window.from.toISOString();
    const validUntil = access.window.until.toISOString();
    const current = existing.find(
      (row) => keyOf(row.holder, row.access_list_id) === keyOf(access.holder, access.accessListId),
    );
    if (current) {
      const moved = toIso(current.valid_from) !== validFrom || toIso(current.valid_until) !== validUntil;
      if (moved || current.name !== access.name) {
        for (const credentialId of [current.credential_id, current.qr_credential_id]) {
          if (!credentialId) continue;
          await updateCredential(trx, portalId, credentialId, {
            name: access.name,
            valid_from: validFrom,
            valid_until: validUntil,
          });
        }
        await updateStayAccess(trx, portalId, current.id, {
          name: access.name,
          valid_from: validFrom,
          valid_until: validUntil,
        });
        changed = true;
      }
      const codeBound = boundTo(current.credential_id);
      if (!sameSet(codeBound, keypadLocks)) {
        await bindExactly(trx, portalId, current.credential_id, keypadLocks, codeBound);
        changed = true;
      }
      if (current.qr_credential_id) {
        const qrBound = boundTo(current.qr_credential_id);
        if (!sameSet(qrBound, allLocks)) {
          await bindExactly(trx, portalId, current.qr_credential_id, allLocks, qrBound);
          changed = true;
        }
      }
      continue;
    }
    const accessId = crypto.randomUUID();
    const credentialId = crypto.randomUUID();
    const code = await generateFreeCode(trx, portalId, codeLengthFor(locks));
    const credential = {
      portal_id: portalId,
      user_id: null,
      holder_type: 'guest' as const,
      variant: 'stay' as const,
      name: access.name,
      valid_from: validFrom,
      valid_until: validUntil,
      created_at: at,
    };
    await insertCredential(trx, { ...credential, id: credentialId, kind: 'code', secret: code });
    for (const deviceId of keypadLocks) await bindCredentialToDevice(trx, portalId, credentialId, deviceId);
    let qrCredentialId: string | null = null;
    if (access.holder === 'guest') {
      // What the guest's signed QR codes open as (their `u`): an app-style entry of their own.
      qrCredentialId = crypto.randomUUID();
      await insertCredential(trx, {
        ...credential,
        id: qrCredentialId,
        kind: 'remote',
        secret: guestQrSecret(accessId),
      });
      for (const deviceId of allLocks) await bindCredentialToDevice(trx, portalId, qrCredentialId, deviceId);
    }
    await insertStayAccess(trx, {
      id: accessId,
      portal_id: portalId,
      stay_id: stay.id,
      holder: access.holder,
      access_list_id: access.accessListId,
      name: access.name,
      credential_id: credentialId,
      qr_credential_id: qrCredentialId,
      valid_from: validFrom,
      valid_until: validUntil,
      created_at: at,
      updated_at: at,
    });
    changed = true;
  }

  if (changed) {
    await touch(portalId, { locks: [...touched] });
    await updateStay(trx, portalId, stay.id, {
      access_generation: stay.access_generation + 1,
      access_state: wanted.length > 0 ? 'waiting' : 'none',
      access_changed_at: at,
    });
  } else if (expired) {
    await touch(portalId, { locks: [...touched] });
    if (wanted.length === 0) await updateStay(trx, portalId, stay.id, { access_state: 'none' });
  }
  return changed;
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((id) => b.includes(id));
}

/** A stay with its listing, the listing's live locks and its access list, read in `db`. */
export async function loadStayFacts(db: Database, stay: StayRow): Promise<StayFacts> {
  const listing = await findListingEvenDeleted(db, stay.portal_id, stay.listing_id);
  if (!listing) throw AppError.notFound('Listing');
  const [locks, accessList] = await Promise.all([
    listLocksOfListing(db, stay.portal_id, stay.listing_id),
    listAccessList(db, stay.portal_id, stay.listing_id),
  ]);
  return { stay, listing, locks, accessList };
}

/**
 * Frees the slots of access that is over (the window of a finished stay, or the cleaner's after
 * it) on these locks of a portal, or on all of its locks: such credentials leave the locks' sets.
 * Run before a new stay is counted against a lock's capacity, and by the access sweep.
 */
export async function expireFinishedAccess(
  trx: Database,
  touch: Touch,
  portalId: string,
  now: Date,
  deviceIds?: readonly string[],
): Promise<number> {
  let query = trx
    .selectFrom('stay_access as sa')
    .innerJoin('stays as s', (j) =>
      j.onRef('s.id', '=', 'sa.stay_id').onRef('s.portal_id', '=', 'sa.portal_id'),
    )
    .selectAll('s')
    .distinct()
    .where('sa.portal_id', '=', portalId)
    .where('sa.removed_at', 'is', null)
    .where('sa.valid_until', '<=', now.toISOString());
  if (deviceIds) {
    if (deviceIds.length === 0) return 0;
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('credential_devices as cd')
          .select('cd.device_id')
          .whereRef('cd.credential_id', '=', 'sa.credential_id')
          .where('cd.portal_id', '=', portalId)
          .where('cd.device_id', 'in', deviceIds),
      ),
    );
  }
  const stays = await query.execute();
  for (const stay of stays) await reconcileStayAccess(trx, touch, await loadStayFacts(trx, stay), now);
  return stays.length;
}

/** The secret of a guest's QR entry: what their signed QR codes carry as `u`. */
export function guestQrSecret(stayAccessId: string): string {
  return `guest:${stayAccessId}`;
}

/**
 * What fills a lock's memory and how much it holds: every entry of its set against its model's
 * capacity, or, when the lock said how many codes it holds (a Z-Wave node's user-code slots,
 * device protocol `capabilities`), its codes against that: app, QR and remote entries take no slot.
 */
function memoryOf(lock: DeviceRow): { holds: number; counts: 'entries' | 'codes' } {
  const reported = reportedCapabilities(lock);
  return reported
    ? { holds: reported.codeSlots, counts: 'codes' }
    : { holds: LOCK_MODELS[lock.model].capacity, counts: 'entries' };
}

/**
 * How full each lock would be: what its set holds now against its memory (memoryOf). Called
 * inside the change's transaction after the access was reconciled, it counts the sets as they would
 * be published; `refuseOverCapacity` turns a lock over its capacity into a 409 that names it.
 */
export async function lockCapacities(
  db: Database,
  portalId: string,
  locks: readonly DeviceRow[],
  extraPerLock: (lock: DeviceRow) => number = () => 0,
): Promise<LockCapacity[]> {
  const sets = await loadCredentialSets(db, portalId, locks);
  return locks.map((lock) => {
    const { holds: capacity, counts } = memoryOf(lock);
    const entries = sets.get(lock.id)?.set.entries ?? [];
    const used =
      counts === 'codes' ? entries.filter((entry) => entry.kind === 'code').length : entries.length;
    const withStay = used + extraPerLock(lock);
    return {
      deviceId: lock.id,
      name: lock.name,
      capacity,
      counts,
      used,
      withStay,
      fits: withStay <= capacity,
    };
  });
}

export function refuseOverCapacity(capacities: readonly LockCapacity[]): void {
  const full = capacities.find((c) => !c.fits);
  if (!full) return;
  const holds =
    full.counts === 'codes'
      ? `it holds ${full.capacity} codes (as the lock itself reports)`
      : `its model holds ${full.capacity} credentials`;
  throw AppError.conflict(
    `${full.name} is full: ${holds} and with this stay it would hold ${full.withStay}. ` +
      'Remove codes it no longer needs (finished stays are freed first), then approve again.',
  );
}

/**
 * What a stay's access adds to one lock's memory (memoryOf): its guest code and QR and the access
 * list's codes as entries, or only the codes where the lock counts codes.
 */
export function entriesPerLock(lock: DeviceRow, accessListSize: number): number {
  const codes = hasKeypad(lock) ? 1 + accessListSize : 0;
  return memoryOf(lock).counts === 'codes' ? codes : 1 + codes;
}

/** Each access of some stays with its code and its state on every lock it is (or was) bound to. */
export async function describeStayAccess(
  db: Database,
  portalId: string,
  stayIds: string[],
): Promise<Map<string, StayAccess[]>> {
  const rows = await listStayAccess(db, portalId, stayIds);
  const credentialIds = rows.flatMap((row) => [
    row.credential_id,
    ...(row.qr_credential_id ? [row.qr_credential_id] : []),
  ]);
  const bindings = await listBindings(db, portalId, credentialIds);
  const deviceIds = [...new Set(bindings.map((b) => b.device_id))];
  const facts = await readSyncFacts(db, portalId, deviceIds, credentialIds);
  const syncOf = new Map(facts.syncs.map((s) => [s.device_id, s]));
  const entryOf = new Map(facts.entries.map((e) => [`${e.device_id} ${e.credential_id}`, e]));
  const rejectionOf = new Map(facts.rejections.map((r) => [`${r.device_id} ${r.credential_id}`, r]));
  const codes = new Map<string, string>();
  for (const row of rows) {
    const credential = await findCredential(db, portalId, row.credential_id);
    codes.set(row.id, credential?.secret ?? '');
  }

  /** One credential's state on one lock, as the sync screens count it. */
  const stateOn = (deviceId: string, credentialId: string, removed: boolean) => {
    if (removed) return { state: 'removed' as const, reason: null };
    const entry = entryOf.get(`${deviceId} ${credentialId}`);
    // Waiting in the recompute outbox: the entry read is from before the change.
    if (!entry || facts.waiting.has(deviceId)) return { state: 'pending' as const, reason: null };
    const rejection = rejectionOf.get(`${deviceId} ${credentialId}`);
    if (rejection && rejection.version >= entry.since_version) {
      return { state: 'rejected' as const, reason: rejection.reason };
    }
    const sync = syncOf.get(deviceId);
    if ((sync?.confirmed_version ?? 0) >= entry.since_version)
      return { state: 'confirmed' as const, reason: null };
    if ((sync?.sent_version ?? 0) >= entry.since_version) return { state: 'sent' as const, reason: null };
    return { state: 'pending' as const, reason: null };
  };
  // The worse of two states: a lock has the access when it has both the code and the QR entry.
  const rank = { rejected: 0, pending: 1, sent: 2, confirmed: 3, removed: 4 } as const;

  const byStay = new Map<string, StayAccess[]>();
  // The guest first, then the access list in the order it was given.
  const ordered = [...rows].sort((a, b) => Number(a.holder !== 'guest') - Number(b.holder !== 'guest'));
  for (const row of ordered) {
    const removed = row.removed_at !== null;
    const names = new Map<string, string>();
    const creds = [row.credential_id, ...(row.qr_credential_id ? [row.qr_credential_id] : [])];
    for (const b of bindings) if (creds.includes(b.credential_id)) names.set(b.device_id, b.name);
    const locks = [...names].map(([deviceId, name]) => {
      let worst: ReturnType<typeof stateOn> | null = null;
      for (const credentialId of creds) {
        if (!bindings.some((b) => b.device_id === deviceId && b.credential_id === credentialId)) continue;
        const state = stateOn(deviceId, credentialId, removed);
        if (!worst || rank[state.state] < rank[worst.state]) worst = state;
      }
      return { deviceId, name, ...(worst ?? { state: 'pending' as const, reason: null }) };
    });
    const access: StayAccess = {
      _id: row.id,
      holder: row.holder,
      name: row.name,
      code: codes.get(row.id) ?? '',
      validFrom: toIso(row.valid_from),
      validUntil: toIso(row.valid_until),
      removed,
      locks: locks.sort((a, b) => a.name.localeCompare(b.name)),
    };
    byStay.set(row.stay_id, [...(byStay.get(row.stay_id) ?? []), access]);
  }
  return byStay;
}

/** Whether every live access of a stay is on every lock (ready), any was refused, or neither yet. */
export function overallLockState(access: readonly StayAccess[]): 'ready' | 'rejected' | 'waiting' | 'none' {
  const live = access.filter((a) => !a.removed);
  if (live.length === 0) return 'none';
  const states = live.flatMap((a) => a.locks.map((l) => l.state));
  if (states.includes('rejected')) return 'rejected';
  if (states.length > 0 && states.every((s) => s === 'confirmed')) return 'ready';
  return 'waiting';
}

export type { StayAccessRow };
