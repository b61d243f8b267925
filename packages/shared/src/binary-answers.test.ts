import { describe, expect, it } from 'vitest';
import { hasBinaryAnswer } from './binary-answers';

describe('hasBinaryAnswer', () => {
  it('matches the registered routes by method and path, parameters filled', () => {
    expect(hasBinaryAnswer('GET', 'portal/devices')).toBe(true);
    expect(hasBinaryAnswer('get', '/portal/devices?limit=100')).toBe(true);
    expect(hasBinaryAnswer('GET', 'device/2f1c/events')).toBe(true);
    expect(hasBinaryAnswer('GET', 'user/u-1/history')).toBe(true);
  });

  it('leaves every other call to JSON', () => {
    expect(hasBinaryAnswer('POST', 'portal/devices')).toBe(false);
    expect(hasBinaryAnswer('GET', 'portal/device/d1')).toBe(false);
    expect(hasBinaryAnswer('GET', 'portal/devices/extra')).toBe(false);
    expect(hasBinaryAnswer('GET', 'device/a/b/events')).toBe(false);
    expect(hasBinaryAnswer('GET', 'portal/activity/export')).toBe(false);
  });
});
