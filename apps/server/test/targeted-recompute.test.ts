import crypto from 'node:crypto';
import { LockFleet } from '@latchkey/locksim';
import type { CredentialSet, Schedule } from '@latchkey/shared';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowIso } from '../src/db/mappers';
import {
  grantDirectAccess,
  buildCredentialSet,
  setUserSchedule,
  revokeDirectAccess,
} from '../src/features/access/access.service';
import { linkUserToDevice } from '../src/features/access/access.repository';
import { recordTouchedLocks } from '../src/base/access-changes/touched-locks';
import { findDesiredSet, sweepUnusedSetBodies } from '../src/features/device-link/credential-set-bodies';
import * as setBodiesMigration from '../src/db/migrations/2026-11-27-0039-credential-set-bodies';
import { seedAccountsInBulk } from '../src/features/auth/accounts';
import { NO_PASSWORD } from '../src/features/auth/password';
import { setAccessCode } from '../src/features/credentials/access-code.service';
import { createCompanyCode, deleteCompanyCode } from '../src/features/credentials/company-codes.service';
import { createFingerprint, deleteFingerprint } from '../src/features/credentials/fingerprints.service';
import {
  createKey,
  deleteKey,
  handOverKey,
  linkKeyToDevice,
  takeBackKey,
  unlinkKeyFromDevice,
} from '../src/features/credentials/keys.service';
import { registerCard, removeCard, saveCard } from '../src/features/credentials/rfid.service';
import { createCodeLock } from '../src/features/credentials/code-locks.service';
import { createDevice, saveDevice } from '../src/features/devices/devices.service';
import { findDevice } from '../src/features/devices/devices.repository';
import { normalise, recomputeLocks } from '../src/features/device-link/credential-recompute';
import { changeGroupLink, createGroup, removeGroup } from '../src/features/groups/groups.service';
import { createInvite, deleteInvite } from '../src/features/invites/invites.service';
import { putLockout, removeLockout } from '../src/features/lockouts/lockouts.service';
import { removeMember, setMemberStatus, updateMember } from '../src/features/members/members.service';
import { insertMembership } from '../src/base/tenancy/memberships.repository';
import { insertOwnedPortal } from '../src/base/tenancy/portals.repository';
import { AppError } from '../src/base/http/errors';
import { TestApp } from './test-app';
import { waitFor } from './net-helpers';

/**
 * Credential sets are recomputed only for the locks a change says it touched (features/access/
 * touched-locks.ts, docs/decisions.md "When sets are recomputed"). These tests drive the real
 * services of a real server, with simulated locks (packages/locksim) holding what they receive.
 */

/** These portals are free and hold more locks than Free allows: plans are not what is tested here. */
const PLANS_ASIDE = 'exempt' as const;

/** A fresh portal with an admin and some people, made directly (no mail, no password hashing). */
async function freshPortal(t: TestApp, people: number) {
  const db = t.app.db;
  const now = nowIso();
  const user = async (role: 'admin' | 'user', portalId: string) => {
    const id = crypto.randomUUID();
    await seedAccountsInBulk(
      db,
      [{ id, email: `p-${id.slice(0, 12)}@example.com`, firstName: 'P', lastName: id.slice(0, 4) }],
      NO_PASSWORD,
      now,
    );
    if (role === 'user') {
      await insertMembership(db, {
        portal_id: portalId,
        user_id: id,
        role,
        status: 'active',
        created_at: now,
        updated_at: now,
      });
    }
    return id;
  };
  const portalId = crypto.randomUUID();
  const adminId = await user('admin', portalId);
  await db
    .transaction()
    .execute((trx) =>
      insertOwnedPortal(trx, { portalId, userId: adminId, name: 'Recompute', timeZone: 'UTC', now }),
    );
  const personIds: string[] = [];
  for (let i = 0; i < people; i++) personIds.push(await user('user', portalId));
  const context = { portalId, actorUserId: adminId, ip: '127.0.0.1' };
  return { portalId, adminId, personIds, context };
}

type Context = Awaited<ReturnType<typeof freshPortal>>['context'];

/** The locks of a portal, connected as simulated locks; each holds the last set it applied. */
async function connectFleet(t: TestApp, locks: { deviceId: string; secret: string }[]) {
  const fleet = new LockFleet({ url: t.app.deviceLink.transport.url, locks, heartbeatSeconds: 0 });
  const applied = new Map<string, number[]>();
  fleet.on('credentialsApplied', ({ deviceId, version }) =>
    applied.set(deviceId, [...(applied.get(deviceId) ?? []), version]),
  );
  const started = await fleet.start();
  expect(started.failed).toEqual([]);
  return { fleet, applied };
}

/** The version the server wants a lock to hold. */
async function desiredVersion(t: TestApp, deviceId: string): Promise<number | null> {
  const row = await t.app.db
    .selectFrom('device_credential_sync')
    .select('desired_version')
    .where('device_id', '=', deviceId)
    .executeTakeFirst();
  return row?.desired_version ?? null;
}

/** Waits until every lock holds the version the server wants it to. */
async function settled(t: TestApp, fleet: LockFleet) {
  await t.app.deviceLink.flushScheduledSyncs();
  for (const lock of fleet.all()) {
    await waitFor(async () => {
      const wanted = await desiredVersion(t, lock.deviceId);
      return wanted !== null && lock.credentialSet?.version === wanted;
    }, `lock ${lock.deviceId} to hold its newest set`);
  }
}

/** The set a lock should hold, computed from scratch for that lock alone. */
async function fromScratch(t: TestApp, portalId: string, deviceId: string): Promise<CredentialSet> {
  const device = (await findDevice(t.app.db, portalId, deviceId))!;
  const set = await buildCredentialSet(t.app.db, portalId, device);
  return normalise({ ...set, qrKey: t.app.deviceLink.signingKeys.publicKeyOf(portalId) });
}

/** The set the server stored for a lock (what it published), without its version. */
async function storedSet(t: TestApp, deviceId: string): Promise<CredentialSet | null> {
  const lock = await t.app.db
    .selectFrom('devices')
    .select('portal_id')
    .where('id', '=', deviceId)
    .executeTakeFirst();
  const stored = lock ? await findDesiredSet(t.app.db, lock.portal_id, deviceId) : null;
  return stored ? { ...stored.set, version: 0 } : null;
}

/** Runs a change; a refusal (404, 400, 409: the change does not apply in this state) changes nothing. */
async function attempt(change: () => Promise<unknown>) {
  try {
    await change();
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
  }
}

const LOCK_COUNT = 4;
const PEOPLE = 3;
const GROUPS = 2;
const TIME_ZONES = ['UTC', 'Europe/Berlin', 'America/New_York'];

const index = (n: number) => fc.nat({ max: n - 1 });
const schedule: fc.Arbitrary<Schedule | null> = fc.option(
  fc.record({
    windows: fc.constant([{ days: [1, 2, 3], start: '08:00', end: '18:00' }]),
    startDate: fc.constantFrom('2026-01-01', '2026-06-01'),
  }),
);
/**
 * Every change to access the services make, on a small portal, by index into what exists. Links are
 * drawn more often: they are what makes the other changes reach locks.
 */
const change = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant('direct' as const),
      lock: index(LOCK_COUNT),
      person: index(PEOPLE),
      on: fc.boolean(),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant('groupPerson' as const),
      group: index(GROUPS),
      person: index(PEOPLE),
      on: fc.boolean(),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant('groupLock' as const),
      group: index(GROUPS),
      lock: index(LOCK_COUNT),
      on: fc.boolean(),
    }),
  },
  fc.record({ op: fc.constant('removeGroup' as const), group: index(GROUPS) }),
  fc.record({
    op: fc.constant('schedule' as const),
    lock: index(LOCK_COUNT),
    person: index(PEOPLE),
    schedule,
  }),
  fc.record({
    op: fc.constant('code' as const),
    person: index(PEOPLE),
    code: fc.option(fc.stringMatching(/^[1-9]\d{5}$/)),
  }),
  fc.record({ op: fc.constant('card' as const), person: fc.option(index(PEOPLE)) }),
  fc.record({ op: fc.constant('cardHolder' as const), card: fc.nat(), person: fc.option(index(PEOPLE)) }),
  fc.record({ op: fc.constant('removeCard' as const), card: fc.nat() }),
  fc.record({ op: fc.constant('fingerprint' as const), person: index(PEOPLE), lock: index(LOCK_COUNT) }),
  fc.record({ op: fc.constant('removeFingerprint' as const), fingerprint: fc.nat() }),
  fc.record({
    op: fc.constant('key' as const),
    person: fc.option(index(PEOPLE)),
    locks: fc.uniqueArray(index(LOCK_COUNT), { maxLength: 3 }),
  }),
  fc.record({ op: fc.constant('keyHolder' as const), key: fc.nat(), person: fc.option(index(PEOPLE)) }),
  fc.record({
    op: fc.constant('keyLock' as const),
    key: fc.nat(),
    lock: index(LOCK_COUNT),
    on: fc.boolean(),
  }),
  fc.record({ op: fc.constant('removeKey' as const), key: fc.nat() }),
  fc.record({ op: fc.constant('companyCode' as const), code: fc.stringMatching(/^[1-9]\d{4}$/) }),
  fc.record({ op: fc.constant('removeCompanyCode' as const), companyCode: fc.nat() }),
  fc.record({ op: fc.constant('invite' as const), lock: index(LOCK_COUNT) }),
  fc.record({ op: fc.constant('removeInvite' as const), invite: fc.nat() }),
  fc.record({
    op: fc.constant('lockout' as const),
    lockout: fc.option(fc.nat()),
    locks: fc.uniqueArray(index(LOCK_COUNT), { minLength: 1, maxLength: 3 }),
    exemptAdmins: fc.boolean(),
  }),
  fc.record({ op: fc.constant('removeLockout' as const), lockout: fc.nat() }),
  fc.record({
    op: fc.constant('role' as const),
    person: index(PEOPLE),
    role: fc.constantFrom('admin', 'user'),
  }),
  fc.record({
    op: fc.constant('status' as const),
    person: index(PEOPLE),
    status: fc.constantFrom('active', 'suspended'),
  }),
  fc.record({ op: fc.constant('removeMember' as const), person: index(PEOPLE) }),
  fc.record({
    op: fc.constant('timeZone' as const),
    lock: index(LOCK_COUNT),
    timeZone: fc.constantFrom(...TIME_ZONES),
  }),
);
type Change = typeof change extends fc.Arbitrary<infer C> ? C : never;

/** What exists in the portal under test, for the changes to name by index. */
interface World {
  context: Context;
  locks: string[];
  people: string[];
  groups: string[];
  cards: string[];
  fingerprints: string[];
  keys: { id: string; holder: string | null }[];
  companyCodes: string[];
  invites: { lock: string; id: string }[];
  lockouts: string[];
}

const pick = <T>(list: T[], i: number): T | undefined =>
  list.length === 0 ? undefined : list[i % list.length];

async function apply(t: TestApp, world: World, c: Change): Promise<void> {
  const db = t.app.db;
  const { context } = world;
  const person = (i: number | null) => (i === null ? null : world.people[i]!);
  switch (c.op) {
    case 'direct':
      return attempt(() =>
        (c.on ? grantDirectAccess : revokeDirectAccess)(
          db,
          context,
          world.locks[c.lock]!,
          world.people[c.person]!,
        ),
      );
    case 'groupPerson':
      return attempt(() =>
        changeGroupLink(db, context, world.groups[c.group]!, { userId: world.people[c.person]! }, c.on),
      );
    case 'groupLock':
      return attempt(() =>
        changeGroupLink(db, context, world.groups[c.group]!, { deviceId: world.locks[c.lock]! }, c.on),
      );
    case 'removeGroup':
      return attempt(() => removeGroup(db, context, world.groups[c.group]!));
    case 'schedule':
      return attempt(() =>
        setUserSchedule(db, context, world.locks[c.lock]!, world.people[c.person]!, c.schedule),
      );
    case 'code':
      return attempt(() => setAccessCode(db, context, world.people[c.person]!, c.code));
    case 'card':
      return attempt(async () => {
        const uid = crypto.randomBytes(4).toString('hex').toUpperCase();
        const card = await registerCard(db, context, {
          uid,
          name: 'Card',
          userId: person(c.person),
          validFrom: null,
          validUntil: null,
        });
        world.cards.push(card._id);
      });
    case 'cardHolder': {
      const id = pick(world.cards, c.card);
      if (!id) return;
      return attempt(async () => {
        const { getCard } = await import('../src/features/credentials/rfid.service');
        const card = await getCard(db, context.portalId, id);
        await saveCard(db, context, id, {
          uid: card.uid,
          name: card.name,
          userId: person(c.person),
          validFrom: '2026-01-01T00:00:00.000Z',
          validUntil: null,
        });
      });
    }
    case 'removeCard': {
      const id = pick(world.cards, c.card);
      return id ? attempt(() => removeCard(db, context, id)) : undefined;
    }
    case 'fingerprint':
      return attempt(async () => {
        const fingerprint = await createFingerprint(db, context, {
          userId: world.people[c.person]!,
          deviceId: world.locks[c.lock]!,
          templateId: `t-${crypto.randomUUID().slice(0, 8)}`,
          finger: 'right-index',
          name: '',
          validFrom: null,
          validUntil: null,
        });
        world.fingerprints.push(fingerprint._id);
      });
    case 'removeFingerprint': {
      const id = pick(world.fingerprints, c.fingerprint);
      return id ? attempt(() => deleteFingerprint(db, context, id)) : undefined;
    }
    case 'key':
      return attempt(async () => {
        const key = await createKey(db, context, {
          name: 'Key',
          type: 'digital',
          number: null,
          userId: person(c.person),
          deviceIds: c.locks.map((i) => world.locks[i]!),
          validFrom: null,
          validUntil: null,
        });
        world.keys.push({ id: key._id, holder: person(c.person) });
      });
    case 'keyHolder': {
      const key = pick(world.keys, c.key);
      if (!key) return;
      const holder = person(c.person);
      return attempt(async () => {
        if (holder) await handOverKey(db, context, key.id, holder);
        else if (key.holder) await takeBackKey(db, context, key.id, key.holder);
        key.holder = holder;
      });
    }
    case 'keyLock': {
      const key = pick(world.keys, c.key);
      if (!key) return;
      return attempt(() =>
        (c.on ? linkKeyToDevice : unlinkKeyFromDevice)(db, context, key.id, world.locks[c.lock]!),
      );
    }
    case 'removeKey': {
      const key = pick(world.keys, c.key);
      return key ? attempt(() => deleteKey(db, context, key.id)) : undefined;
    }
    case 'companyCode':
      return attempt(async () => {
        const created = await createCompanyCode(db, context, {
          name: 'Staff',
          code: c.code,
          validFrom: null,
          validUntil: null,
        });
        world.companyCodes.push(created._id);
      });
    case 'removeCompanyCode': {
      const id = pick(world.companyCodes, c.companyCode);
      return id ? attempt(() => deleteCompanyCode(db, context, id)) : undefined;
    }
    case 'invite':
      return attempt(async () => {
        const invite = await createInvite(db, context, world.locks[c.lock]!, {
          name: 'Guest',
          email: '',
          phone: '',
          days: [5, 6],
          start: '10:00',
          end: '20:00',
          startDate: '2026-12-01',
          endDate: '2027-01-31',
          send: false,
        });
        world.invites.push({ lock: world.locks[c.lock]!, id: invite._id });
      });
    case 'removeInvite': {
      const invite = pick(world.invites, c.invite);
      return invite ? attempt(() => deleteInvite(db, context, invite.lock, invite.id)) : undefined;
    }
    case 'lockout': {
      const existing = c.lockout === null ? undefined : pick(world.lockouts, c.lockout);
      return attempt(async () => {
        const saved = await putLockout(db, context, existing ?? null, {
          name: 'Works',
          from: '2026-12-24T00:00:00.000Z',
          until: '2026-12-27T00:00:00.000Z',
          exemptAdmins: c.exemptAdmins,
          deviceIds: c.locks.map((i) => world.locks[i]!),
        });
        if (!existing) world.lockouts.push(saved._id);
      });
    }
    case 'removeLockout': {
      const id = pick(world.lockouts, c.lockout);
      return id ? attempt(() => removeLockout(db, context, id)) : undefined;
    }
    case 'role':
      return attempt(() => updateMember(db, context, world.people[c.person]!, { role: c.role }));
    case 'status':
      return attempt(() => setMemberStatus(db, context, world.people[c.person]!, c.status));
    case 'removeMember':
      return attempt(() => removeMember(db, context, world.people[c.person]!));
    case 'timeZone':
      return attempt(() => saveDevice(db, context, world.locks[c.lock]!, { timeZone: c.timeZone }));
  }
}

describe('targeted recompute', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t?.close());

  it('leaves every lock holding the set computed from scratch, after any sequence of changes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(change, { minLength: 8, maxLength: 30, size: 'max' }), async (changes) => {
        const { context, personIds } = await freshPortal(t, PEOPLE);
        const db = t.app.db;
        const made = [
          await createDevice(
            db,
            context,
            { name: 'Front', model: 'latchkey-sim', timeZone: 'UTC' },
            undefined,
            PLANS_ASIDE,
          ),
          await createCodeLock(
            db,
            context,
            {
              name: 'Shed',
              code: '48151623'.slice(0, 6),
              timeZone: 'Europe/Berlin',
            },
            PLANS_ASIDE,
          ),
          await createDevice(
            db,
            context,
            {
              name: 'Gate',
              model: 'generic-nokeypad',
              timeZone: 'America/New_York',
            },
            undefined,
            PLANS_ASIDE,
          ),
          await createDevice(
            db,
            context,
            { name: 'Office', model: 'generic-smartlock', timeZone: 'UTC' },
            undefined,
            PLANS_ASIDE,
          ),
        ];
        const world: World = {
          context,
          locks: made.map((m) => m.device._id),
          people: personIds,
          groups: [
            (await createGroup(db, context, { name: 'A', description: '' }))._id,
            (await createGroup(db, context, { name: 'B', description: '' }))._id,
          ],
          cards: [],
          fingerprints: [],
          keys: [],
          companyCodes: [],
          invites: [],
          lockouts: [],
        };
        const { fleet } = await connectFleet(
          t,
          made.map((m) => ({ deviceId: m.device._id, secret: m.deviceSecret })),
        );
        try {
          await settled(t, fleet);
          // After each change, what the server holds for every lock is what a full recomputation
          // gives (a lock the change forgot to name would keep its old set)…
          for (const c of changes) {
            await apply(t, world, c);
            await t.app.deviceLink.flushScheduledSyncs();
            for (const deviceId of world.locks) {
              expect(await storedSet(t, deviceId), JSON.stringify(c)).toEqual(
                await fromScratch(t, context.portalId, deviceId),
              );
            }
          }
          // …and at the end every lock holds it.
          await settled(t, fleet);
          for (const lock of fleet.all()) {
            const held = lock.credentialSet!;
            expect({ ...held, version: 0 }).toEqual(await fromScratch(t, context.portalId, lock.deviceId));
          }
          // Nothing is left waiting in the outbox.
          const waiting = await db
            .selectFrom('device_credential_recompute')
            .select('device_id')
            .where('portal_id', '=', context.portalId)
            .execute();
          expect(waiting).toEqual([]);
        } finally {
          await fleet.stop();
        }
      }),
      { numRuns: Number(process.env.RECOMPUTE_PROPERTY_RUNS ?? 15), endOnFailure: true },
    );
  }, 240_000);

  it('publishes a change that reaches one lock to that lock only, and a company code to every keypad', async () => {
    const { context, personIds } = await freshPortal(t, 2);
    const db = t.app.db;
    const made = [];
    for (let i = 0; i < 6; i++) {
      made.push(
        await createDevice(
          db,
          context,
          {
            name: `Door ${i}`,
            model: i === 5 ? 'generic-nokeypad' : 'latchkey-sim',
            timeZone: 'UTC',
          },
          undefined,
          PLANS_ASIDE,
        ),
      );
    }
    const ids = made.map((m) => m.device._id);
    const [alice, bob] = personIds as [string, string];
    const group = await createGroup(db, context, { name: 'Staff', description: '' });
    await changeGroupLink(db, context, group._id, { userId: bob }, true);
    for (const id of ids.slice(3)) await changeGroupLink(db, context, group._id, { deviceId: id }, true);
    const { fleet, applied } = await connectFleet(
      t,
      made.map((m) => ({ deviceId: m.device._id, secret: m.deviceSecret })),
    );
    try {
      await settled(t, fleet);
      // New versions each lock applied (a lock may be handed its current set again after a
      // status report; that is no new set).
      const counts = () => ids.map((id) => new Set(applied.get(id) ?? []).size);
      const newSets = async (change: () => Promise<unknown>) => {
        const before = counts();
        await change();
        await settled(t, fleet);
        return counts().map((n, i) => n - before[i]!);
      };

      // A direct link, a schedule there, the person's code: all reach lock 0 alone.
      expect(await newSets(() => grantDirectAccess(db, context, ids[0]!, alice))).toEqual([1, 0, 0, 0, 0, 0]);
      expect(
        await newSets(() =>
          setUserSchedule(db, context, ids[0]!, alice, {
            windows: [{ days: [1, 2, 3, 4, 5], start: '07:00', end: '19:00' }],
          }),
        ),
      ).toEqual([1, 0, 0, 0, 0, 0]);
      expect(await newSets(() => setAccessCode(db, context, alice, '271828'))).toEqual([1, 0, 0, 0, 0, 0]);
      // Bob reaches the group's locks 3, 4 and 5.
      expect(await newSets(() => setAccessCode(db, context, bob, '314159'))).toEqual([0, 0, 0, 1, 1, 1]);
      expect(await newSets(() => setMemberStatus(db, context, bob, 'suspended'))).toEqual([0, 0, 0, 1, 1, 1]);
      // A lockout on locks 1 and 2.
      expect(
        await newSets(() =>
          putLockout(db, context, null, {
            name: 'Floor works',
            from: '2026-12-24T00:00:00.000Z',
            until: null,
            exemptAdmins: true,
            deviceIds: [ids[1]!, ids[2]!],
          }),
        ),
      ).toEqual([0, 1, 1, 0, 0, 0]);
      // A company code touches every lock; the one without a keypad gets no new set, its content
      // being the same.
      expect(
        await newSets(() =>
          createCompanyCode(db, context, {
            name: 'Cleaners',
            code: '161803',
            validFrom: null,
            validUntil: null,
          }),
        ),
      ).toEqual([1, 1, 1, 1, 1, 0]);
      // A change to nothing any lock holds (a group's name) publishes nothing.
      expect(
        await newSets(async () => {
          const { saveGroup } = await import('../src/features/groups/groups.service');
          await saveGroup(db, context, group._id, { name: 'Staff (all)', description: '' });
        }),
      ).toEqual([0, 0, 0, 0, 0, 0]);

      // Every lock confirmed its newest set (the acks are recorded in groups).
      for (const id of ids) {
        await waitFor(async () => {
          const row = await db
            .selectFrom('device_credential_sync')
            .select(['desired_version', 'confirmed_version'])
            .where('device_id', '=', id)
            .executeTakeFirstOrThrow();
          return row.confirmed_version === row.desired_version;
        }, `lock ${id} to confirm`);
      }
    } finally {
      await fleet.stop();
    }
  });

  it('recomputes a lock a committed change left in the outbox: at its next status report, or when the link drains', async () => {
    const { context, personIds } = await freshPortal(t, 2);
    const db = t.app.db;
    const made = [
      await createDevice(
        db,
        context,
        { name: 'North', model: 'latchkey-sim', timeZone: 'UTC' },
        undefined,
        PLANS_ASIDE,
      ),
      await createDevice(
        db,
        context,
        { name: 'South', model: 'latchkey-sim', timeZone: 'UTC' },
        undefined,
        PLANS_ASIDE,
      ),
    ];
    const [north, south] = made.map((m) => m.device._id) as [string, string];
    const { fleet } = await connectFleet(
      t,
      made.map((m) => ({ deviceId: m.device._id, secret: m.deviceSecret })),
    );
    const holds = (deviceId: string, userId: string) =>
      fleet.get(deviceId).credentialSet?.entries.some((e) => e.credentialId === `remote:${userId}`) ?? false;
    /** A status report from the lock (a new battery level, to see it stored), handled to the end. */
    const reportStatus = async (deviceId: string, battery: number) => {
      fleet.get(deviceId).replaceBattery(battery);
      await waitFor(
        async () => (await findDevice(db, context.portalId, deviceId))?.battery === battery,
        'the status',
      );
      await t.app.deviceLink.flushScheduledSyncs();
    };
    try {
      await settled(t, fleet);
      // What a server that stopped right after committing leaves: the change and its outbox row,
      // and nobody told to recompute.
      const stoppedServerChange = (deviceId: string, userId: string, outbox: boolean) =>
        db.transaction().execute(async (trx) => {
          await linkUserToDevice(trx, context.portalId, deviceId, userId);
          if (outbox)
            await recordTouchedLocks(trx, context.portalId, { locks: [deviceId] }, crypto.randomUUID());
        });

      // A status report rebuilds nothing for a lock that is not in the outbox: a link written
      // behind the services' back stays unseen…
      await stoppedServerChange(north, personIds[0]!, false);
      const versionBefore = fleet.get(north).credentialSet!.version;
      await reportStatus(north, 61);
      expect(fleet.get(north).credentialSet!.version).toBe(versionBefore);
      expect(holds(north, personIds[0]!)).toBe(false);

      // …while a lock in the outbox is rebuilt at its next status report.
      await stoppedServerChange(north, personIds[1]!, true);
      await reportStatus(north, 62);
      await waitFor(() => holds(north, personIds[1]!), 'the status report to bring the change');
      expect(holds(north, personIds[0]!)).toBe(true);

      // A row left for a lock that says nothing is taken when the link drains the outbox (as it
      // does when it starts, and every few seconds for rows another server left).
      await stoppedServerChange(south, personIds[0]!, true);
      await t.app.deviceLink.flushScheduledSyncs();
      await waitFor(() => holds(south, personIds[0]!), 'the drained change to reach the lock');
      const waiting = await db
        .selectFrom('device_credential_recompute')
        .select('device_id')
        .where('portal_id', '=', context.portalId)
        .execute();
      expect(waiting).toEqual([]);
    } finally {
      await fleet.stop();
    }
  });
  it("stores a set's content once for all the locks that hold it, each lock still getting its own id and version", async () => {
    const { context, personIds } = await freshPortal(t, 1);
    const db = t.app.db;
    const made = [];
    for (let i = 0; i < 3; i++) {
      made.push(
        await createDevice(
          db,
          context,
          { name: `Same ${i}`, model: 'latchkey-sim', timeZone: 'UTC' },
          undefined,
          PLANS_ASIDE,
        ),
      );
    }
    const ids = made.map((m) => m.device._id);
    const group = await createGroup(db, context, { name: 'Everywhere', description: '' });
    await changeGroupLink(db, context, group._id, { userId: personIds[0]! }, true);
    for (const id of ids) await changeGroupLink(db, context, group._id, { deviceId: id }, true);
    const { fleet } = await connectFleet(
      t,
      made.map((m) => ({ deviceId: m.device._id, secret: m.deviceSecret })),
    );
    try {
      await settled(t, fleet);
      const syncRows = () =>
        db
          .selectFrom('device_credential_sync')
          .select(['device_id', 'desired_version', 'desired_hash'])
          .where('portal_id', '=', context.portalId)
          .orderBy('device_id')
          .execute();
      const before = await syncRows();
      expect(new Set(before.map((row) => row.desired_hash)).size).toBe(1);
      const bodies = await db
        .selectFrom('credential_set_bodies')
        .select('body_hash')
        .where('portal_id', '=', context.portalId)
        .execute();
      expect(bodies.map((b) => b.body_hash)).toContain(before[0]!.desired_hash);
      for (const lock of fleet.all()) {
        const stored = await storedSet(t, lock.deviceId);
        expect(lock.credentialSet?.deviceId).toBe(lock.deviceId);
        expect({ ...lock.credentialSet!, version: 0 }).toEqual(stored);
        expect(stored?.entries.some((e) => e.userId === personIds[0])).toBe(true);
      }

      // The migration that moved stored sets into bodies, back and forth, keeps every hash: the
      // next recomputation finds nothing changed (no lock is handed a new version).
      await setBodiesMigration.down(db as never);
      await setBodiesMigration.up(db as never);
      expect(await syncRows()).toEqual(before);
      const outcome = await recomputeLocks(db, context.portalId, ids, {
        publish: async () => {
          throw new Error('nothing should be published');
        },
        qrKeyOf: (portalId) => t.app.deviceLink.signingKeys.publicKeyOf(portalId),
      });
      expect(outcome.published).toEqual([]);

      // The hourly sweep deletes a body no lock names once unused for an hour, never a named one.
      const longAgo = new Date(Date.now() - 2 * 3600_000).toISOString();
      await db
        .insertInto('credential_set_bodies')
        .values({ portal_id: context.portalId, body_hash: 'stray', body: '{}', used_at: longAgo })
        .execute();
      await db
        .updateTable('credential_set_bodies')
        .set({ used_at: longAgo })
        .where('portal_id', '=', context.portalId)
        .execute();
      await sweepUnusedSetBodies(db, new Date(Date.now() - 3600_000).toISOString());
      const left = await db
        .selectFrom('credential_set_bodies')
        .select('body_hash')
        .where('portal_id', '=', context.portalId)
        .execute();
      expect(left.map((b) => b.body_hash)).toEqual([before[0]!.desired_hash]);
    } finally {
      await fleet.stop();
    }
  });
});
