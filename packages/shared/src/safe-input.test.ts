import { describe, expect, it } from 'vitest';
import { scheduleInputSchema, scheduleSchema } from './access/access.schemas';
import { auditQuerySchema } from './audit.schemas';
import { groupInputSchema } from './groups.schemas';
import { listQuerySchema } from './list-query';
import { portalDataSchema, timeZoneSchema } from './portal.schemas';
import {
  dateInput,
  idSchema,
  instantInput,
  integerParam,
  isWellFormedText,
  lineText,
  multilineText,
  passwordText,
  searchTextSchema,
} from './safe-input';

const ok = (schema: { safeParse(value: unknown): { success: boolean } }, value: unknown) =>
  schema.safeParse(value).success;

describe('text', () => {
  it('refuses NUL and other control characters in one-line text, and lone surrogates anywhere', () => {
    const name = lineText().max(80);
    expect(name.parse('  Ada Lovelace ')).toBe('Ada Lovelace');
    expect(ok(name, 'Zoë 🔑 Ōsaka')).toBe(true);
    for (const bad of [
      'a\u0000b',
      'a\u0007b',
      'a\tb',
      'line\nbreak',
      'a\u007fb',
      'a\ud800b',
      'a\udc00b',
      '\ud83d',
      // C1 controls (an empty box on screen), line and paragraph separators.
      'A\u0085B',
      'A\u009fB',
      'A\u2028B',
      'A\u2029B',
      // Text-direction embeddings, overrides and isolates: "A\u202eBL" reads "ALB".
      'A\u202eB',
      'A\u202aB',
      'a\u2066b\u2069',
    ]) {
      expect(ok(name, bad), JSON.stringify(bad)).toBe(false);
    }
  });

  it('trims zero-width characters at the ends, so an invisible name is an empty one', () => {
    const name = lineText().min(1).max(80);
    expect(name.parse('  Pad \u200b')).toBe('Pad');
    expect(name.parse('\ufeff\u2060Ana\u200c')).toBe('Ana');
    expect(ok(name, '\u200b')).toBe(false);
    expect(ok(name, ' \u200b\u200d ')).toBe(false);
    // Inside the text they stay: emoji sequences are joined by U+200D, and right-to-left text keeps
    // its direction marks.
    expect(name.parse('👩\u200d💻 dev')).toBe('👩\u200d💻 dev');
    expect(name.parse('\u200fשלום\u200f')).toBe('\u200fשלום\u200f');
    expect(multilineText().parse('\u200bfirst\nsecond\u200b')).toBe('first\nsecond');
  });

  it('keeps tab and line breaks in multi-line text, and nothing else below space', () => {
    const text = multilineText().max(500);
    expect(text.parse('first line\n\tsecond\r\nthird')).toBe('first line\n\tsecond\r\nthird');
    expect(ok(text, 'a\u0000b')).toBe(false);
    expect(ok(text, 'a\u001bb')).toBe(false);
    expect(ok(text, 'a\u0085b')).toBe(false);
    expect(ok(text, 'a\u202eb')).toBe(false);
    expect(groupInputSchema.safeParse({ name: 'Staff', description: 'a\u0000' }).success).toBe(false);
  });

  it('knows well-formed UTF-16 from lone surrogates', () => {
    expect(isWellFormedText('🔑')).toBe(true);
    expect(isWellFormedText('\ud83d\udd11'.slice(0, 1))).toBe(false);
    expect(isWellFormedText('\udd11\ud83d')).toBe(false);
  });

  it('keeps a password as typed, but for NUL and lone surrogates', () => {
    const password = passwordText();
    expect(password.parse('  tab\there  ')).toBe('  tab\there  ');
    expect(ok(password, 'pass\u0000word')).toBe(false);
    // Both would reach the hasher as U+FFFD: two passwords that hash alike.
    expect(ok(password, 'pass\ud800word')).toBe(false);
    expect(ok(password, 'pass\udbffword')).toBe(false);
    expect(ok(password, 'emoji \ud83d\udd11 key')).toBe(true);
  });

  it('refuses poison in search and filter values', () => {
    expect(ok(searchTextSchema, 'müller')).toBe(true);
    expect(ok(searchTextSchema, 'a\u0000')).toBe(false);
    const query = listQuerySchema({ sortBy: ['name'], filterBy: ['role'] });
    expect(query.safeParse({ search: '\u0000' }).success).toBe(false);
    expect(query.safeParse({ filterBy: 'role', filterValue: '\ud800' }).success).toBe(false);
  });
});

describe('ids', () => {
  it('takes the server’s ids and refuses anything else', () => {
    expect(ok(idSchema, '3f1c0a4e-6d7b-4c1e-9a51-2b7f0c9d8e11')).toBe(true);
    for (const bad of ['', 'a\u0000', 'a b', '../x', 'x'.repeat(65), '\ud800', 'é']) {
      expect(ok(idSchema, bad), JSON.stringify(bad)).toBe(false);
    }
  });
});

describe('instants and dates', () => {
  it('refuses the year 0000 and years past 9999, on the UTC instant', () => {
    const instant = instantInput();
    expect(ok(instant, '2030-01-01T00:00:00Z')).toBe(true);
    expect(ok(instant, '2030-01-01T09:00:00+02:00')).toBe(true);
    expect(ok(instant, '1900-01-01T00:00:00Z')).toBe(true);
    expect(ok(instant, '9999-12-31T23:59:59.999Z')).toBe(true);
    expect(ok(instant, '0000-01-01T00:00:00Z')).toBe(false);
    expect(ok(instant, '1899-12-31T23:59:59Z')).toBe(false);
    // Still 9999 here, but the year 10000 in UTC.
    expect(ok(instant, '9999-12-31T23:00:00-05:00')).toBe(false);
    expect(ok(instantInput({ offset: false }), '2030-01-01T00:00:00+01:00')).toBe(false);
    expect(auditQuerySchema.safeParse({ fromDate: '0000-01-01T00:00:00Z' }).success).toBe(false);
  });

  it('refuses calendar dates outside 1900–9999 and impossible days', () => {
    const date = dateInput();
    expect(ok(date, '2030-02-28')).toBe(true);
    expect(ok(date, '9999-12-31')).toBe(true);
    expect(ok(date, '0000-01-01')).toBe(false);
    expect(ok(date, '1899-12-31')).toBe(false);
    expect(ok(date, '2030-02-29')).toBe(false);
  });

  it('applies to schedules a client sends, while answers still read a schedule stored before', () => {
    const schedule = { windows: [{ days: [1], start: '09:00', end: '17:00' }], startDate: '0000-01-01' };
    expect(scheduleInputSchema.safeParse(schedule).success).toBe(false);
    expect(scheduleSchema.safeParse(schedule).success).toBe(true);
    expect(scheduleInputSchema.safeParse({ ...schedule, startDate: '2030-01-01' }).success).toBe(true);
  });
});

describe('numbers in query strings', () => {
  it('takes plain decimal digits only', () => {
    const limit = integerParam({ min: 1, max: 200 });
    expect(limit.parse('16')).toBe(16);
    expect(limit.parse('016')).toBe(16);
    for (const bad of [
      '0x10',
      '1e1',
      ' 16',
      '16 ',
      '',
      '+16',
      '1.5',
      '0b1',
      'Infinity',
      '99999999999999999999',
    ]) {
      expect(ok(limit, bad), JSON.stringify(bad)).toBe(false);
    }
    expect(ok(limit, '0')).toBe(false);
    expect(ok(limit, '201')).toBe(false);
  });

  it('is what the list query takes for skip and limit', () => {
    const query = listQuerySchema({ sortBy: ['name'], filterBy: ['role'] });
    expect(query.parse({ limit: '16', skip: '0' })).toMatchObject({ limit: 16, skip: 0 });
    expect(query.parse({})).toMatchObject({ limit: 25, skip: 0 });
    expect(query.safeParse({ limit: '0x10' }).success).toBe(false);
    expect(query.safeParse({ skip: '1e3' }).success).toBe(false);
  });
});

describe('time zones', () => {
  it('stores the canonical name however it was typed, and still refuses unknown zones', () => {
    expect(timeZoneSchema.parse('utc')).toBe('UTC');
    expect(timeZoneSchema.parse('europe/berlin')).toBe('Europe/Berlin');
    // The current name stays, though older ICU answers its old link for it.
    expect(timeZoneSchema.parse('Asia/Kolkata')).toBe('Asia/Kolkata');
    expect(timeZoneSchema.parse('Europe/Kyiv')).toBe('Europe/Kyiv');
    expect(timeZoneSchema.parse('Europe/berlin')).toBe('Europe/Berlin');
    expect(timeZoneSchema.parse('America/New_York')).toBe('America/New_York');
    expect(portalDataSchema.parse({ timeZone: 'AMERICA/NEW_YORK' })).toEqual({
      timeZone: 'America/New_York',
    });
    expect(ok(timeZoneSchema, 'Mars/Olympus_Mons')).toBe(false);
    expect(ok(timeZoneSchema, 'UTC\u0000')).toBe(false);
  });
});
