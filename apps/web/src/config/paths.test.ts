import { describe, expect, it } from 'vitest';
import { paths } from './paths';

describe('paths', () => {
  it('builds a screen without parameters as its pattern', () => {
    expect(paths.root.href()).toBe('/');
    expect(paths.app.devices.href()).toBe('/app/device');
    expect(paths.shop.shipping.href()).toBe('/pickShipping');
  });

  it('fills the parameters in order, each encoded', () => {
    expect(paths.app.device.href('device-1')).toBe('/app/device/device-1');
    expect(paths.app.stay.href('listing 1', 'a/b')).toBe('/app/listing/listing%201/request/a%2Fb');
    expect(paths.app.monthBill.href(2025, 3)).toBe('/app/billing/2025/3');
  });

  it('adds the query, leaving out undefined values', () => {
    expect(paths.app.device.href('d1', { tab: 'sync' })).toBe('/app/device/d1?tab=sync');
    expect(paths.sync.user.href({ userId: 'u1' })).toBe('/sync/user?userId=u1');
    expect(paths.sync.user.href({ userId: undefined })).toBe('/sync/user');
    expect(paths.auth.landing.href({ redirect: '/app/user?page=2' })).toBe(
      '/auth/landing?redirect=%2Fapp%2Fuser%3Fpage%3D2',
    );
  });
});
