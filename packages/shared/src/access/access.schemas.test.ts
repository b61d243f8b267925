import { describe, expect, it } from 'vitest';
import {
  accessDecisionSchema,
  clockToMinutes,
  credentialEntrySchema,
  credentialSetSchema,
  lockoutSchema,
  presentedCredentialSchema,
  scheduleSchema,
  weeklyWindowSchema,
} from './access.schemas';

function messages(result: { success: boolean; error?: { issues: { message: string }[] } }): string[] {
  return result.error?.issues.map((issue) => issue.message) ?? [];
}

describe('weeklyWindowSchema', () => {
  const window = { days: [1, 2, 3], start: '09:00', end: '17:00' };

  it('accepts day, overnight, whole-day and ending-at-midnight windows', () => {
    expect(weeklyWindowSchema.safeParse(window).success).toBe(true);
    expect(weeklyWindowSchema.safeParse({ ...window, start: '22:00', end: '06:00' }).success).toBe(true);
    expect(weeklyWindowSchema.safeParse({ ...window, start: '00:00', end: '24:00' }).success).toBe(true);
    expect(weeklyWindowSchema.safeParse({ ...window, start: '22:00', end: '00:00' }).success).toBe(true);
    expect(weeklyWindowSchema.safeParse({ ...window, days: [0, 1, 2, 3, 4, 5, 6] }).success).toBe(true);
  });

  it.each(['9:00', '24:00', '23:60', '12:5', '12-00', ' 12:00', '', '1200'])('refuses start %j', (start) => {
    expect(weeklyWindowSchema.safeParse({ ...window, start }).success).toBe(false);
  });

  it.each(['24:01', '25:00', '9:00', 'noon'])('refuses end %j', (end) => {
    expect(weeklyWindowSchema.safeParse({ ...window, end }).success).toBe(false);
  });

  it('refuses days out of 0–6, repeated, fractional, none, or more than seven', () => {
    expect(weeklyWindowSchema.safeParse({ ...window, days: [7] }).success).toBe(false);
    expect(weeklyWindowSchema.safeParse({ ...window, days: [-1] }).success).toBe(false);
    expect(weeklyWindowSchema.safeParse({ ...window, days: [1.5] }).success).toBe(false);
    expect(weeklyWindowSchema.safeParse({ ...window, days: [] }).success).toBe(false);
    expect(weeklyWindowSchema.safeParse({ ...window, days: [1, 1] }).success).toBe(false);
    expect(weeklyWindowSchema.safeParse({ ...window, days: [0, 1, 2, 3, 4, 5, 6, 0] }).success).toBe(false);
  });

  it('refuses a window whose end equals its start, saying how to write a whole day', () => {
    const result = weeklyWindowSchema.safeParse({ ...window, start: '08:00', end: '08:00' });
    expect(result.success).toBe(false);
    expect(messages(result)).toEqual(['end must differ from start (use 00:00–24:00 for a whole day)']);
    expect(weeklyWindowSchema.safeParse({ ...window, start: '00:00', end: '00:00' }).success).toBe(false);
  });

  it('reads clocks as minutes since midnight', () => {
    expect(clockToMinutes('00:00')).toBe(0);
    expect(clockToMinutes('09:30')).toBe(570);
    expect(clockToMinutes('23:59')).toBe(1439);
    expect(clockToMinutes('24:00')).toBe(1440);
  });
});

describe('scheduleSchema', () => {
  const windows = [{ days: [1], start: '09:00', end: '17:00' }];

  it('accepts optional inclusive dates, equal ones included', () => {
    expect(scheduleSchema.safeParse({ windows }).success).toBe(true);
    expect(scheduleSchema.safeParse({ windows, startDate: '2026-03-01' }).success).toBe(true);
    expect(scheduleSchema.safeParse({ windows, endDate: '2026-03-01' }).success).toBe(true);
    expect(
      scheduleSchema.safeParse({ windows, startDate: '2026-03-01', endDate: '2026-03-01' }).success,
    ).toBe(true);
  });

  it('refuses an endDate before the startDate', () => {
    const result = scheduleSchema.safeParse({ windows, startDate: '2026-03-02', endDate: '2026-03-01' });
    expect(result.success).toBe(false);
    expect(messages(result)).toEqual(['endDate must not be before startDate']);
    expect(result.error?.issues[0]?.path).toEqual(['endDate']);
  });

  it('refuses dates that are not real YYYY-MM-DD dates', () => {
    expect(scheduleSchema.safeParse({ windows, startDate: '2026-3-1' }).success).toBe(false);
    expect(scheduleSchema.safeParse({ windows, startDate: '2026-02-30' }).success).toBe(false);
    expect(scheduleSchema.safeParse({ windows, endDate: '2026-03-01T00:00:00Z' }).success).toBe(false);
  });

  it('needs 1 to 28 windows', () => {
    expect(scheduleSchema.safeParse({ windows: [] }).success).toBe(false);
    expect(scheduleSchema.safeParse({ windows: Array(28).fill(windows[0]) }).success).toBe(true);
    expect(scheduleSchema.safeParse({ windows: Array(29).fill(windows[0]) }).success).toBe(false);
  });
});

describe('credential set contracts', () => {
  const entry = {
    credentialId: 'c1',
    kind: 'code',
    secret: '012345',
    holderType: 'person',
    userId: 'u1',
    userRole: 'user',
    userStatus: 'active',
    schedule: null,
    validFrom: '2026-03-01T00:00:00Z',
    validUntil: null,
  };
  const set = {
    deviceId: 'd1',
    version: 0,
    timeZone: 'Europe/Berlin',
    entries: [entry],
    lockouts: [{ lockoutId: 'l1', from: '2026-03-01T00:00:00.000Z', until: null, exemptAdmins: true }],
  };

  it('accepts a well-formed set, with UTC or offset instants', () => {
    expect(credentialSetSchema.safeParse(set).success).toBe(true);
    expect(
      credentialEntrySchema.safeParse({ ...entry, validUntil: '2026-04-01T00:00:00+02:00' }).success,
    ).toBe(true);
  });

  it('refuses an unknown time zone', () => {
    const result = credentialSetSchema.safeParse({ ...set, timeZone: 'Mars/Olympus_Mons' });
    expect(result.success).toBe(false);
    expect(messages(result)).toEqual(['must be an IANA time zone']);
    expect(credentialSetSchema.safeParse({ ...set, timeZone: '' }).success).toBe(false);
  });

  it('refuses a negative or fractional version', () => {
    expect(credentialSetSchema.safeParse({ ...set, version: -1 }).success).toBe(false);
    expect(credentialSetSchema.safeParse({ ...set, version: 1.5 }).success).toBe(false);
  });

  it('refuses unknown kinds, roles, statuses and non-ISO instants', () => {
    expect(credentialEntrySchema.safeParse({ ...entry, kind: 'face' }).success).toBe(false);
    expect(credentialEntrySchema.safeParse({ ...entry, userRole: 'superAdmin' }).success).toBe(false);
    expect(credentialEntrySchema.safeParse({ ...entry, userStatus: 'invited' }).success).toBe(false);
    expect(credentialEntrySchema.safeParse({ ...entry, validFrom: '2026-03-01' }).success).toBe(false);
    expect(lockoutSchema.safeParse({ ...set.lockouts[0], from: 'yesterday' }).success).toBe(false);
  });

  it('names a userId exactly for person credentials', () => {
    expect(credentialEntrySchema.safeParse({ ...entry, userId: null }).success).toBe(false);
    const company = { ...entry, holderType: 'company', userId: null, userRole: null };
    expect(credentialEntrySchema.safeParse(company).success).toBe(true);
    expect(credentialEntrySchema.safeParse({ ...company, userId: 'u1' }).success).toBe(false);
  });

  it('refuses an empty presented secret', () => {
    expect(presentedCredentialSchema.safeParse({ kind: 'rfid', secret: 'A1B2' }).success).toBe(true);
    expect(presentedCredentialSchema.safeParse({ kind: 'rfid', secret: '' }).success).toBe(false);
  });

  it('shapes decisions as granted-with-ids or refused-with-a-reason', () => {
    expect(accessDecisionSchema.safeParse({ granted: true, credentialId: 'c1', userId: 'u1' }).success).toBe(
      true,
    );
    expect(accessDecisionSchema.safeParse({ granted: true }).success).toBe(false);
    expect(accessDecisionSchema.safeParse({ granted: false, reason: 'unknown_credential' }).success).toBe(
      true,
    );
    expect(accessDecisionSchema.safeParse({ granted: false, reason: 'nope' }).success).toBe(false);
  });
});
