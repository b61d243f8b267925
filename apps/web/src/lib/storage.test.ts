import { STORAGE_KEYS } from '@latchkey/shared';
import { describe, expect, it, vi } from 'vitest';
import { portalFixture } from '@/testing/fixtures';
import { storage } from './storage';

describe('storage', () => {
  it('uses the brief’s keys', () => {
    expect(Object.values(STORAGE_KEYS).sort()).toEqual(
      ['authToken', 'cart', 'cms', 'permissions', 'portal', 'portalContext', 'userData'].sort(),
    );
    storage.setAuthToken('abc');
    expect(localStorage.getItem('authToken')).toBe('abc');
  });

  it('reads corrupt permissions as []', () => {
    localStorage.setItem('permissions', '{not json');
    expect(storage.getPermissions()).toEqual([]);
    localStorage.setItem('permissions', '{"a":1}');
    expect(storage.getPermissions()).toEqual([]);
    localStorage.setItem('permissions', '[1,2]');
    expect(storage.getPermissions()).toEqual([]);
  });

  it('replaces permissions when set', () => {
    storage.setPermissions(['a', 'b']);
    storage.setPermissions(['c']);
    expect(storage.getPermissions()).toEqual(['c']);
  });

  it('reads a corrupt cart as {}', () => {
    localStorage.setItem('cart', 'nope');
    expect(storage.getCart()).toEqual({});
    localStorage.setItem('cart', '[1]');
    expect(storage.getCart()).toEqual({});
    localStorage.setItem('cart', '{"lock":"two"}');
    expect(storage.getCart()).toEqual({});
  });

  it('reads a corrupt cms flag as false', () => {
    localStorage.setItem('cms', '{{');
    expect(storage.getCms()).toBe(false);
    localStorage.setItem('cms', '"yes"');
    expect(storage.getCms()).toBe(false);
    storage.setCms(true);
    expect(storage.getCms()).toBe(true);
  });

  it('round-trips user data and rejects a malformed one', () => {
    const data = {
      email: 'ada@example.com',
      firstName: 'Ada',
      lastName: 'Lovelace',
      portalOwned: 'portal-1',
      readNotification: { 'portal-1': 1700000000000 },
    };
    storage.setUserData(data);
    expect(storage.getUserData()).toEqual(data);
    localStorage.setItem('userData', '{"email":3}');
    expect(storage.getUserData()).toBeNull();
  });

  it('recomputes a stored portal context’s current flag', () => {
    const expired = portalFixture({ expireDate: '2000-01-01T00:00:00.000Z', current: true });
    storage.setPortalContext({ portal: expired, role: 'admin', status: 'active', viaPlatformRole: false });
    expect(storage.getPortalContext()?.portal.current).toBe(false);
    const paying = portalFixture({ expireDate: null, stripe: { status: 'active' }, current: false });
    storage.setPortalContext({ portal: paying, role: 'admin', status: 'active', viaPlatformRole: false });
    expect(storage.getPortalContext()?.portal.current).toBe(true);
    localStorage.setItem('portalContext', '{"portal":1}');
    expect(storage.getPortalContext()).toBeNull();
  });

  it('clears the auth keys but keeps the cart and cms flag', () => {
    storage.setAuthToken('t');
    storage.setPermissions(['x']);
    storage.setPortal('p');
    storage.setUserData({ email: 'a', firstName: '', lastName: '', portalOwned: null, readNotification: {} });
    storage.setCart({ lock: 1 });
    storage.setCms(true);
    storage.clearAuth();
    for (const key of ['authToken', 'permissions', 'userData', 'portal', 'portalContext']) {
      expect(localStorage.getItem(key)).toBeNull();
    }
    expect(storage.getCart()).toEqual({ lock: 1 });
    expect(storage.getCms()).toBe(true);
  });

  it('tells subscribers about writes', () => {
    const listener = vi.fn();
    const unsubscribe = storage.subscribe(listener);
    storage.setPortal('p');
    expect(listener).toHaveBeenCalledWith('portal');
    unsubscribe();
    storage.setPortal(null);
    expect(listener).toHaveBeenCalledTimes(1);
  });
});
