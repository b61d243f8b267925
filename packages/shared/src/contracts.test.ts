import { describe, expect, it } from 'vitest';
import { createAccountSchema, loginPayloadSchema } from './auth.schemas';
import { listQuerySchema } from './list-query';
import { isPortalCurrent, portalDataSchema } from './portal.schemas';
import { permissionsFor } from './roles';

describe('account contracts', () => {
  it('lower-cases and trims the email on account creation', () => {
    const parsed = createAccountSchema.parse({ email: '  Ada@Example.COM ', password: 'long enough pass' });
    expect(parsed.email).toBe('ada@example.com');
  });

  it('refuses passwords shorter than 8 or longer than 128 characters', () => {
    expect(createAccountSchema.safeParse({ email: 'a@b.co', password: 'short' }).success).toBe(false);
    expect(createAccountSchema.safeParse({ email: 'a@b.co', password: 'x'.repeat(129) }).success).toBe(false);
    expect(createAccountSchema.safeParse({ email: 'a@b.co', password: 'x'.repeat(128) }).success).toBe(true);
  });

  it('defaults the sign-in scope and system type', () => {
    expect(loginPayloadSchema.parse({ email: 'a@b.co', password: 'p' })).toMatchObject({
      scope: 'app',
      systemType: 'app',
    });
    expect(
      loginPayloadSchema.safeParse({ email: 'a@b.co', password: 'p', systemType: 'other' }).success,
    ).toBe(false);
  });
});

describe('portal contracts', () => {
  const now = new Date('2026-11-22T12:00:00Z');

  it('is current when stripe is active or the expiry date is in the future', () => {
    expect(isPortalCurrent({ stripeStatus: 'active', expireDate: null }, now)).toBe(true);
    expect(isPortalCurrent({ stripeStatus: 'canceled', expireDate: '2026-11-23T00:00:00Z' }, now)).toBe(true);
    expect(isPortalCurrent({ stripeStatus: 'past_due', expireDate: '2026-11-22T11:59:59Z' }, now)).toBe(
      false,
    );
    expect(isPortalCurrent({ stripeStatus: null, expireDate: null }, now)).toBe(false);
  });

  it('checks time zones and needs at least one field', () => {
    expect(portalDataSchema.safeParse({ timeZone: 'Europe/Berlin' }).success).toBe(true);
    expect(portalDataSchema.safeParse({ timeZone: 'Mars/Olympus' }).success).toBe(false);
    expect(portalDataSchema.safeParse({}).success).toBe(false);
  });
});

describe('list query', () => {
  const schema = listQuerySchema({ sortBy: ['name'], filterBy: ['role'] });

  it('applies defaults and coerces query-string values', () => {
    expect(schema.parse({})).toEqual({ skip: 0, limit: 25, descending: false });
    expect(schema.parse({ skip: '10', limit: '5', descending: 'true', sortBy: 'name' })).toMatchObject({
      skip: 10,
      limit: 5,
      descending: true,
    });
  });

  it('allows only listed sort and filter fields, and filterBy with filterValue', () => {
    expect(schema.safeParse({ sortBy: 'password_hash' }).success).toBe(false);
    expect(schema.safeParse({ filterBy: 'role' }).success).toBe(false);
    expect(schema.safeParse({ limit: '1000' }).success).toBe(false);
    expect(schema.safeParse({ filterBy: 'role', filterValue: 'admin' }).success).toBe(true);
  });
});

describe('permissions', () => {
  it('joins the permissions of several roles without repeats', () => {
    const permissions = permissionsFor(['admin', 'superAdmin']);
    expect(permissions).toContain('portal.edit');
    expect(permissions).toContain('platform.tools');
    expect(new Set(permissions).size).toBe(permissions.length);
  });
});
