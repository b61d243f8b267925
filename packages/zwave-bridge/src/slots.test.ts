import type { CredentialEntry, CredentialSet } from '@latchkey/shared';
import { describe, expect, it } from 'vitest';
import { lockScheduleKey, planSlots, wallClockOf, type KeypadCapabilities } from './slots';

const caps: KeypadCapabilities = {
  userCodes: 3,
  allowedCharacters: '0123456789',
  minLength: 4,
  maxLength: 10,
};
const now = new Date('2026-11-27T12:00:00.000Z');

function entry(credentialId: string, overrides: Partial<CredentialEntry> = {}): CredentialEntry {
  return {
    credentialId,
    kind: 'code',
    secret: '1234',
    holderType: 'person',
    userId: `user-${credentialId}`,
    userRole: 'user',
    userStatus: 'active',
    schedule: null,
    validFrom: null,
    validUntil: null,
    ...overrides,
  } as CredentialEntry;
}

function set(entries: CredentialEntry[], lockouts: CredentialSet['lockouts'] = []): CredentialSet {
  return { deviceId: 'd', version: 1, timeZone: 'Europe/Berlin', entries, lockouts };
}

describe('planSlots', () => {
  it('puts codes in the lowest free slots and rejects other kinds as unsupported_kind', () => {
    const plan = planSlots(
      set([
        entry('a', { secret: '1111' }),
        entry('b', { kind: 'rfid', secret: 'AABBCC' }),
        entry('c', { kind: 'remote', secret: 'user-c' }),
        entry('d', { secret: '2222' }),
      ]),
      caps,
      new Map(),
      now,
    );
    expect(Object.fromEntries(plan.assignment)).toEqual({ a: 1, d: 2 });
    expect(plan.rejected).toEqual([{ credentialId: 'b', reason: 'unsupported_kind' }]);
    expect([...plan.desired]).toEqual([
      [1, '1111'],
      [2, '2222'],
      [3, null],
    ]);
  });

  it('puts cards in their own RFID slots where the lock has them, one slot per card for as long as it is in the set', () => {
    const withCards = { ...caps, rfidSlots: 2 };
    const entries = [
      entry('a', { secret: '1111' }),
      entry('card-1', { kind: 'rfid', secret: '04A23B1C' }),
      entry('card-2', { kind: 'rfid', secret: '04A23B1C5D6E7F', validUntil: '2026-11-27T11:00:00.000Z' }),
      entry('card-3', { kind: 'rfid', secret: '11223344' }),
      entry('card-4', { kind: 'rfid', secret: '04A23B1C' }),
      entry('card-5', { kind: 'rfid', secret: 'ABC' }),
      entry('finger', { kind: 'fingerprint', secret: 'template' }),
    ];
    const plan = planSlots(set(entries), withCards, new Map(), now, new Map([['card-2', 1]]));
    // Codes are numbered as before; card slots count from 1 on their own.
    expect(Object.fromEntries(plan.assignment)).toEqual({ a: 1 });
    expect(Object.fromEntries(plan.cards.assignment)).toEqual({ 'card-2': 1, 'card-1': 2 });
    // A card past its end keeps its slot, empty; a card that fits no slot, a UID twice, a UID that
    // is not whole bytes and a fingerprint are each rejected with their own reason.
    expect([...plan.cards.desired]).toEqual([
      [1, null],
      [2, '04A23B1C'],
    ]);
    expect(plan.rejected).toEqual([
      { credentialId: 'card-3', reason: 'storage_full' },
      { credentialId: 'card-4', reason: 'invalid_secret' },
      { credentialId: 'card-5', reason: 'invalid_secret' },
      { credentialId: 'finger', reason: 'unsupported_kind' },
    ]);
  });

  it('keeps a credential in its slot when others come and go, and answers storage_full per entry that does not fit', () => {
    const previous = new Map([
      ['b', 3],
      ['gone', 1],
    ]);
    const plan = planSlots(
      set([
        entry('a', { secret: '1111' }),
        entry('b', { secret: '2222' }),
        entry('c', { secret: '3333' }),
        entry('d', { secret: '4444' }),
      ]),
      caps,
      previous,
      now,
    );
    expect(plan.assignment.get('b')).toBe(3);
    expect(plan.assignment.get('a')).toBe(1);
    expect(plan.assignment.get('c')).toBe(2);
    expect(plan.rejected).toEqual([{ credentialId: 'd', reason: 'storage_full' }]);
  });

  it('refuses codes the keypad cannot take and a second entry with the same code', () => {
    const plan = planSlots(
      set([
        entry('a', { secret: '12' }),
        entry('b', { secret: '12345678901' }),
        entry('c', { secret: '12a4' }),
        entry('d', { secret: '5555' }),
        entry('e', { secret: '5555' }),
      ]),
      caps,
      new Map(),
      now,
    );
    expect(plan.rejected.map((r) => [r.credentialId, r.reason])).toEqual([
      ['a', 'invalid_secret'],
      ['b', 'invalid_secret'],
      ['c', 'invalid_secret'],
      ['e', 'invalid_secret'],
    ]);
  });

  it('reserves the slot of a code outside its window but leaves the slot empty until the window opens', () => {
    const stay = entry('g', {
      secret: '8888',
      holderType: 'guest',
      validFrom: '2026-11-28T14:00:00.000Z',
      validUntil: '2026-11-30T10:00:00.000Z',
    });
    const before = planSlots(set([stay]), caps, new Map(), now);
    expect(before.assignment.get('g')).toBe(1);
    expect(before.desired.get(1)).toBeNull();
    const during = planSlots(set([stay]), caps, before.assignment, new Date('2026-11-29T00:00:00.000Z'));
    expect(during.desired.get(1)).toBe('8888');
    const after = planSlots(set([stay]), caps, before.assignment, new Date('2026-11-30T10:00:00.000Z'));
    expect(after.desired.get(1)).toBeNull();
  });

  it('follows weekly schedules on the wall clock of the set, and lockouts', () => {
    // Friday 27 November 2026, 13:00 in Berlin.
    const weekdays = entry('w', {
      schedule: { windows: [{ days: [1, 2, 3, 4, 5], start: '08:00', end: '12:00' }] },
    });
    expect(planSlots(set([weekdays]), caps, new Map(), now).desired.get(1)).toBeNull();
    expect(
      planSlots(set([weekdays]), caps, new Map(), new Date('2026-11-27T08:00:00.000Z')).desired.get(1),
    ).toBe('1234');
    const lockedOut = set(
      [entry('x')],
      [{ lockoutId: 'l', from: '2026-11-27T00:00:00.000Z', until: null, exemptAdmins: true }],
    );
    expect(planSlots(lockedOut, caps, new Map(), now).desired.get(1)).toBeNull();
  });
});

describe("the lock's year-day schedule", () => {
  it("reads an instant on the set's wall clock, summer and winter time alike, to the minute", () => {
    expect(wallClockOf(new Date('2026-07-10T13:00:45.000Z'), 'Europe/Berlin')).toEqual({
      year: 2026,
      month: 7,
      day: 10,
      hour: 15,
      minute: 0,
    });
    expect(wallClockOf(new Date('2026-12-31T23:30:00.000Z'), 'Europe/Berlin')).toEqual({
      year: 2027,
      month: 1,
      day: 1,
      hour: 0,
      minute: 30,
    });
  });

  it('gives a code with an end a schedule, and one without an end none', () => {
    const stay = entry('a', {
      validFrom: '2026-12-01T14:00:00.000Z',
      validUntil: '2026-12-03T10:00:00.000Z',
    });
    expect(lockScheduleKey(set([stay]), stay)).toBe(
      '2026-12-01T14:00:00.000Z/2026-12-03T10:00:00.000Z Europe/Berlin',
    );
    expect(lockScheduleKey(set([entry('b')]), entry('b'))).toBeNull();
    expect(lockScheduleKey(set([]), undefined)).toBeNull();
  });
});
