import { describe, expect, it } from 'vitest';
import { systemTypeForHost } from './system-type';

describe('systemTypeForHost', () => {
  it('gives app for the live, stage and test hosts of the main app', () => {
    for (const host of ['app.latchkey.io', 'stage.latchkey.io', 'test.latchkey.io']) {
      expect(systemTypeForHost(host, {})).toBe('app');
    }
  });

  it('gives reseller and admin for their hosts', () => {
    expect(systemTypeForHost('reseller.latchkey.io', {})).toBe('reseller');
    expect(systemTypeForHost('admin.latchkey.io', {})).toBe('admin');
    expect(systemTypeForHost('ADMIN.latchkey.io.', {})).toBe('admin');
  });

  it('defaults to app', () => {
    expect(systemTypeForHost('localhost', {})).toBe('app');
    expect(systemTypeForHost('locks.example.com', {})).toBe('app');
  });

  it('reads host lists from the environment', () => {
    const env = {
      VITE_ADMIN_HOSTS: 'ops.example.com, staff.example.com',
      VITE_RESELLER_HOSTS: 'partners.example.com',
    };
    expect(systemTypeForHost('staff.example.com', env)).toBe('admin');
    expect(systemTypeForHost('partners.example.com', env)).toBe('reseller');
    // The configured list replaces the default one.
    expect(systemTypeForHost('admin.latchkey.io', env)).toBe('app');
  });
});
