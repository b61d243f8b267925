import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  accessDecisionSchema,
  CREDENTIAL_KINDS,
  credentialSetSchema,
  type CredentialEntry,
  type CredentialSet,
  type Lockout,
} from './access.schemas';
import { scheduleArb, zoneArb } from './access.test-helpers';
import { evaluateAccess, explainEntry, whoCanOpen } from './evaluate-access';

const NOW = new Date('2026-03-10T12:00:00Z');

function entry(overrides: Partial<CredentialEntry> = {}): CredentialEntry {
  return {
    credentialId: 'c1',
    kind: 'code',
    secret: '1234',
    holderType: 'person',
    userId: 'u1',
    userRole: 'user',
    userStatus: 'active',
    schedule: null,
    validFrom: null,
    validUntil: null,
    ...overrides,
  };
}

function lockout(overrides: Partial<Lockout> = {}): Lockout {
  return { lockoutId: 'l1', from: '2026-03-10T00:00:00Z', until: null, exemptAdmins: false, ...overrides };
}

function set(entries: CredentialEntry[], lockouts: Lockout[] = []): CredentialSet {
  return credentialSetSchema.parse({
    deviceId: 'd1',
    version: 3,
    timeZone: 'Europe/Berlin',
    entries,
    lockouts,
  });
}

const code = (secret: string) => ({ kind: 'code' as const, secret });
const refused = (reason: string, credentialId = 'c1', userId = 'u1') => ({
  granted: false,
  reason,
  credentialId,
  userId,
});
// Tuesday 2026-03-10 13:00 in Berlin.
const MORNINGS = { windows: [{ days: [2], start: '08:00', end: '12:00' }] };

describe('evaluateAccess: each rule', () => {
  it('grants a matching active credential with no limits', () => {
    expect(evaluateAccess(set([entry()]), code('1234'), NOW)).toEqual({
      granted: true,
      credentialId: 'c1',
      userId: 'u1',
    });
  });

  it('refuses an unknown credential without naming anyone', () => {
    expect(evaluateAccess(set([entry()]), code('9999'), NOW)).toEqual({
      granted: false,
      reason: 'unknown_credential',
    });
    expect(evaluateAccess(set([]), code('1234'), NOW)).toEqual({
      granted: false,
      reason: 'unknown_credential',
    });
  });

  it('matches kind and secret exactly: no leading-zero, case or whitespace folding', () => {
    const credentials = set([
      entry({ secret: '01234' }),
      entry({ credentialId: 'c2', kind: 'rfid', secret: 'AB12' }),
    ]);
    expect(evaluateAccess(credentials, code('1234'), NOW).granted).toBe(false);
    expect(evaluateAccess(credentials, code('01234'), NOW).granted).toBe(true);
    expect(evaluateAccess(credentials, code('01234 '), NOW).granted).toBe(false);
    expect(evaluateAccess(credentials, { kind: 'rfid', secret: 'ab12' }, NOW).granted).toBe(false);
    expect(evaluateAccess(credentials, { kind: 'qr', secret: 'AB12' }, NOW).granted).toBe(false);
    expect(evaluateAccess(credentials, { kind: 'rfid', secret: 'AB12' }, NOW).granted).toBe(true);
  });

  it('opens by remote with the userId as secret', () => {
    const credentials = set([entry({ credentialId: 'r1', kind: 'remote', secret: 'u1' })]);
    expect(evaluateAccess(credentials, { kind: 'remote', secret: 'u1' }, NOW)).toEqual({
      granted: true,
      credentialId: 'r1',
      userId: 'u1',
    });
  });

  it('refuses a suspended user', () => {
    expect(evaluateAccess(set([entry({ userStatus: 'suspended' })]), code('1234'), NOW)).toEqual(
      refused('suspended'),
    );
  });

  it('refuses during a lockout: from included, until excluded, null until open-ended', () => {
    const at = (from: string, until: string | null) =>
      evaluateAccess(set([entry()], [lockout({ from, until })]), code('1234'), NOW);
    expect(at('2026-03-10T12:00:00Z', null)).toEqual(refused('lockout'));
    expect(at('2026-03-10T12:00:00.001Z', null).granted).toBe(true);
    expect(at('2026-03-01T00:00:00Z', '2026-03-10T12:00:00.001Z')).toEqual(refused('lockout'));
    expect(at('2026-03-01T00:00:00Z', '2026-03-10T12:00:00Z').granted).toBe(true);
    expect(at('2026-03-10T13:00:00+01:00', '2026-03-10T14:00:00+01:00')).toEqual(refused('lockout'));
  });

  it('lets admins through only lockouts that exempt them', () => {
    const admin = entry({ userRole: 'admin' });
    expect(evaluateAccess(set([admin], [lockout({ exemptAdmins: true })]), code('1234'), NOW).granted).toBe(
      true,
    );
    expect(evaluateAccess(set([admin], [lockout()]), code('1234'), NOW)).toEqual(refused('lockout'));
    expect(evaluateAccess(set([entry()], [lockout({ exemptAdmins: true })]), code('1234'), NOW)).toEqual(
      refused('lockout'),
    );
    // One exempting lockout does not cancel another that does not exempt.
    const both = [lockout({ exemptAdmins: true }), lockout({ lockoutId: 'l2' })];
    expect(evaluateAccess(set([admin], both), code('1234'), NOW)).toEqual(refused('lockout'));
  });

  it('ignores lockouts that are over or not yet started', () => {
    const lockouts = [
      lockout({ from: '2026-03-01T00:00:00Z', until: '2026-03-02T00:00:00Z' }),
      lockout({ lockoutId: 'l2', from: '2026-03-11T00:00:00Z' }),
    ];
    expect(evaluateAccess(set([entry()], lockouts), code('1234'), NOW).granted).toBe(true);
  });

  it('refuses before validFrom (validFrom itself is valid)', () => {
    expect(
      evaluateAccess(set([entry({ validFrom: '2026-03-10T12:00:00.001Z' })]), code('1234'), NOW),
    ).toEqual(refused('not_yet_valid'));
    expect(
      evaluateAccess(set([entry({ validFrom: '2026-03-10T12:00:00Z' })]), code('1234'), NOW).granted,
    ).toBe(true);
  });

  it('refuses from validUntil on (validUntil itself is expired)', () => {
    expect(evaluateAccess(set([entry({ validUntil: '2026-03-10T12:00:00Z' })]), code('1234'), NOW)).toEqual(
      refused('expired'),
    );
    expect(
      evaluateAccess(set([entry({ validUntil: '2026-03-10T12:00:00.001Z' })]), code('1234'), NOW).granted,
    ).toBe(true);
  });

  it('refuses outside the schedule, read in the lock zone', () => {
    expect(evaluateAccess(set([entry({ schedule: MORNINGS })]), code('1234'), NOW)).toEqual(
      refused('outside_schedule'),
    );
    // 10:00Z is 11:00 in Berlin.
    expect(
      evaluateAccess(set([entry({ schedule: MORNINGS })]), code('1234'), new Date('2026-03-10T10:00:00Z')),
    ).toEqual({ granted: true, credentialId: 'c1', userId: 'u1' });
  });
});

describe('evaluateAccess: precedence', () => {
  const allWrong = {
    userStatus: 'suspended' as const,
    validFrom: '2026-03-11T00:00:00Z',
    validUntil: '2026-03-01T00:00:00Z',
    schedule: MORNINGS,
  };
  const reasonFor = (overrides: Partial<CredentialEntry>, lockouts: Lockout[] = [lockout()]) => {
    const decision = evaluateAccess(set([entry(overrides)], lockouts), code('1234'), NOW);
    return decision.granted ? 'granted' : decision.reason;
  };

  it('checks suspended → lockout → not_yet_valid → expired → outside_schedule', () => {
    expect(reasonFor(allWrong)).toBe('suspended');
    expect(reasonFor({ ...allWrong, userStatus: 'active' })).toBe('lockout');
    expect(reasonFor({ ...allWrong, userStatus: 'active' }, [])).toBe('not_yet_valid');
    expect(reasonFor({ ...allWrong, userStatus: 'active', validFrom: null }, [])).toBe('expired');
    expect(reasonFor({ ...allWrong, userStatus: 'active', validFrom: null, validUntil: null }, [])).toBe(
      'outside_schedule',
    );
  });

  it('refuses an exempt admin for the later reasons still', () => {
    const admin = { ...allWrong, userStatus: 'active' as const, userRole: 'admin' as const };
    expect(reasonFor(admin, [lockout({ exemptAdmins: true })])).toBe('not_yet_valid');
    expect(reasonFor({ ...admin, userStatus: 'suspended' }, [lockout({ exemptAdmins: true })])).toBe(
      'suspended',
    );
  });

  it('grants when any of several matching entries grants', () => {
    const credentials = set([
      entry({ credentialId: 'c1', userId: 'u1', userStatus: 'suspended' }),
      entry({ credentialId: 'c2', userId: 'u2', schedule: MORNINGS }),
      entry({ credentialId: 'c3', userId: 'u3' }),
      entry({ credentialId: 'c4', userId: 'u4' }),
    ]);
    expect(evaluateAccess(credentials, code('1234'), NOW)).toEqual({
      granted: true,
      credentialId: 'c3',
      userId: 'u3',
    });
  });

  it('returns the first match’s refusal when no match grants', () => {
    const credentials = set([
      entry({ credentialId: 'other', kind: 'rfid', userStatus: 'suspended' }),
      entry({ credentialId: 'c1', userId: 'u1', validUntil: '2026-03-01T00:00:00Z' }),
      entry({ credentialId: 'c2', userId: 'u2', userStatus: 'suspended' }),
    ]);
    expect(evaluateAccess(credentials, code('1234'), NOW)).toEqual(refused('expired', 'c1', 'u1'));
  });

  it('uses explainEntry for a single match', () => {
    const credentials = set([entry({ schedule: MORNINGS })]);
    const [only] = credentials.entries;
    expect(only && explainEntry(credentials, only, NOW)).toEqual(
      evaluateAccess(credentials, code('1234'), NOW),
    );
  });
});

describe('whoCanOpen', () => {
  it('lists each person once, sorted by userId, with the credentials that work in entry order', () => {
    const credentials = set(
      [
        entry({ credentialId: 'c1', userId: 'zoe', secret: '1111' }),
        entry({ credentialId: 'c2', userId: 'Adam', kind: 'rfid', secret: 'AA' }),
        entry({ credentialId: 'c3', userId: 'zoe', kind: 'remote', secret: 'zoe' }),
        entry({ credentialId: 'c4', userId: 'bea', userStatus: 'suspended' }),
        entry({ credentialId: 'c5', userId: 'adam', schedule: MORNINGS }),
        entry({ credentialId: 'c6', userId: 'zoe', validUntil: '2026-03-01T00:00:00Z' }),
      ],
      [],
    );
    expect(whoCanOpen(credentials, NOW)).toEqual([
      { holderType: 'person', userId: 'Adam', credentialIds: ['c2'] },
      { holderType: 'person', userId: 'zoe', credentialIds: ['c1', 'c3'] },
    ]);
    // At 11:00 Berlin the morning schedule is open too.
    expect(whoCanOpen(credentials, new Date('2026-03-10T10:00:00Z')).map((opener) => opener.userId)).toEqual([
      'Adam',
      'adam',
      'zoe',
    ]);
  });

  it('lists company, guest and master credentials one by one after the people', () => {
    const holderless = { userId: null, userRole: null } as const;
    const credentials = set([
      entry({ ...holderless, credentialId: 'guest-1', holderType: 'guest', secret: '5555' }),
      entry({ credentialId: 'c1', userId: 'u1' }),
      entry({ ...holderless, credentialId: 'company-1', holderType: 'company', secret: '7777' }),
      entry({
        ...holderless,
        credentialId: 'company-2',
        holderType: 'company',
        validUntil: '2026-03-01T00:00:00Z',
      }),
    ]);
    expect(whoCanOpen(credentials, NOW)).toEqual([
      { holderType: 'person', userId: 'u1', credentialIds: ['c1'] },
      { holderType: 'company', userId: null, credentialIds: ['company-1'] },
      { holderType: 'guest', userId: null, credentialIds: ['guest-1'] },
    ]);
    expect(evaluateAccess(credentials, { kind: 'code', secret: '7777' }, NOW)).toEqual({
      granted: true,
      credentialId: 'company-1',
      userId: null,
    });
  });

  it('lets a master code through a lockout that exempts admins, and not a company code', () => {
    const holderless = { userId: null, userRole: null } as const;
    const credentials = set(
      [
        entry({ ...holderless, credentialId: 'm', holderType: 'master', userRole: 'admin', secret: '9999' }),
        entry({ ...holderless, credentialId: 'co', holderType: 'company', secret: '7777' }),
      ],
      [lockout({ exemptAdmins: true })],
    );
    expect(whoCanOpen(credentials, NOW).map((o) => o.credentialIds[0])).toEqual(['m']);
  });

  it('is empty under a lockout that exempts nobody', () => {
    const credentials = set(
      [entry(), entry({ credentialId: 'c2', userId: 'u2', userRole: 'admin' })],
      [lockout()],
    );
    expect(whoCanOpen(credentials, NOW)).toEqual([]);
  });
});

// Generated sets: few users, kinds and secrets so that matches collide; everything near BASE.
const BASE = Date.parse('2026-03-29T00:00:00Z');
const HOUR = 3_600_000;
const nearInstant = fc.integer({ min: -120, max: 120 }).map((hours) => BASE + hours * HOUR);
const isoNear = nearInstant.map((t) => new Date(t).toISOString());

const entryArb = fc.record({
  kind: fc.constantFrom<CredentialEntry['kind']>('code', 'rfid', 'remote'),
  secret: fc.constantFrom('1234', '01234', 'A1', 'u1'),
  userId: fc.constantFrom('u1', 'u2', 'u3', 'U1'),
  schedule: fc.option(scheduleArb('2026-03-29'), { nil: null }),
  validFrom: fc.option(isoNear, { nil: null }),
  validUntil: fc.option(isoNear, { nil: null }),
});

const lockoutArb = fc.record({
  lockoutId: fc.constant('l'),
  from: isoNear,
  until: fc.option(isoNear, { nil: null }),
  exemptAdmins: fc.boolean(),
});

// Role and status belong to the person, so every entry of one user carries the same ones.
const personArb = fc.record({
  userRole: fc.constantFrom('admin' as const, 'user' as const),
  userStatus: fc.constantFrom('active' as const, 'active' as const, 'suspended' as const),
});

const setArb = fc
  .record({
    timeZone: zoneArb,
    people: fc.dictionary(fc.constantFrom('u1', 'u2', 'u3', 'U1'), personArb, { minKeys: 4, maxKeys: 4 }),
    entries: fc.array(entryArb, { maxLength: 8 }),
    lockouts: fc.array(lockoutArb, { maxLength: 2 }),
  })
  .map(({ timeZone, people, entries, lockouts }) =>
    credentialSetSchema.parse({
      deviceId: 'd1',
      version: 1,
      timeZone,
      // One credential may reach a lock through several grants (direct and via a group), so the same
      // credentialId can sit on several entries, always with the same kind, secret and user.
      entries: entries.map((generated) => ({
        ...generated,
        ...people[generated.userId],
        holderType: 'person',
        credentialId: `${generated.kind}-${generated.secret}-${generated.userId}`,
      })),
      lockouts: lockouts.map((generated, index) => ({ ...generated, lockoutId: `l${index}` })),
    }),
  );

const instantArb = nearInstant.map((t) => new Date(t + 17 * 60_000));

function presentedFrom(credentials: CredentialSet) {
  const seen = new Map(
    credentials.entries.map((e) => [`${e.kind}\u0000${e.secret}`, { kind: e.kind, secret: e.secret }]),
  );
  return [...seen.values(), { kind: 'qr' as const, secret: 'nobody-has-this' }];
}

describe('evaluateAccess: properties', () => {
  it('(d) never grants a suspended user', () => {
    fc.assert(
      fc.property(setArb, instantArb, (credentials, instant) => {
        for (const e of credentials.entries) {
          if (e.userStatus === 'suspended')
            expect(explainEntry(credentials, e, instant)).toMatchObject({
              granted: false,
              reason: 'suspended',
            });
        }
        const suspendedOnly = {
          ...credentials,
          entries: credentials.entries.map((e) => ({ ...e, userStatus: 'suspended' as const })),
        };
        for (const presented of presentedFrom(suspendedOnly)) {
          expect(evaluateAccess(suspendedOnly, presented, instant).granted).toBe(false);
        }
        expect(whoCanOpen(suspendedOnly, instant)).toEqual([]);
      }),
    );
  });

  it('(e) a lockout covering the instant refuses everyone but admins it exempts', () => {
    fc.assert(
      fc.property(
        setArb,
        instantArb,
        fc.boolean(),
        fc.option(fc.integer({ min: 1, max: 48 }), { nil: null }),
        fc.integer({ min: 0, max: 48 }),
        (generated, instant, exemptAdmins, hoursAfter, hoursBefore) => {
          const covering: Lockout = {
            lockoutId: 'cover',
            from: new Date(instant.getTime() - hoursBefore * HOUR).toISOString(),
            until: hoursAfter === null ? null : new Date(instant.getTime() + hoursAfter * HOUR).toISOString(),
            exemptAdmins,
          };
          const credentials = { ...generated, lockouts: [...generated.lockouts, covering] };
          for (const e of credentials.entries) {
            const decision = explainEntry(credentials, e, instant);
            const passesLockout = exemptAdmins && e.userRole === 'admin';
            if (!passesLockout && e.userStatus === 'active')
              expect(decision).toMatchObject({ reason: 'lockout' });
            if (decision.granted) expect(passesLockout).toBe(true);
          }
          for (const presented of presentedFrom(credentials)) {
            const decision = evaluateAccess(credentials, presented, instant);
            if (decision.granted) {
              const granting = credentials.entries.find(
                (e) => e.credentialId === decision.credentialId && e.userId === decision.userId,
              );
              expect(exemptAdmins && granting?.userRole === 'admin').toBe(true);
            }
          }
        },
      ),
    );
  });

  it('(f) evaluateAccess grants exactly when whoCanOpen lists a matching entry', () => {
    fc.assert(
      fc.property(setArb, instantArb, (credentials, instant) => {
        const openers = whoCanOpen(credentials, instant);
        const listed = (userId: string | null, credentialId: string) =>
          openers.some((o) => o.userId === userId && o.credentialIds.includes(credentialId));
        for (const presented of presentedFrom(credentials)) {
          const decision = evaluateAccess(credentials, presented, instant);
          const matches = credentials.entries.filter(
            (e) => e.kind === presented.kind && e.secret === presented.secret,
          );
          expect(decision.granted).toBe(matches.some((e) => listed(e.userId, e.credentialId)));
          if (decision.granted) expect(listed(decision.userId, decision.credentialId)).toBe(true);
          else if (matches[0]) expect(decision).toEqual(explainEntry(credentials, matches[0], instant));
          else expect(decision).toEqual({ granted: false, reason: 'unknown_credential' });
        }
        const userIds = openers.map((o) => o.userId);
        expect(userIds).toEqual([...new Set(userIds)].sort());
        expect(openers.every((o) => o.credentialIds.length > 0)).toBe(true);
      }),
    );
  });

  it('answers any presented credential with a decision the schema accepts', () => {
    const secretArb = fc.constantFrom('1234', '01234', 'A1', 'u1', 'zzz');
    fc.assert(
      fc.property(
        setArb,
        instantArb,
        fc.constantFrom(...CREDENTIAL_KINDS),
        secretArb,
        (credentials, instant, kind, secret) => {
          const decision = evaluateAccess(credentials, { kind, secret }, instant);
          expect(accessDecisionSchema.parse(decision)).toEqual(decision);
          const matched = credentials.entries.some((e) => e.kind === kind && e.secret === secret);
          expect(!decision.granted && decision.reason === 'unknown_credential').toBe(!matched);
        },
      ),
    );
  });
});
