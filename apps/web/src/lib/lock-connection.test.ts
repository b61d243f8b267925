import { describe, expect, it } from 'vitest';
import { connectionText, qrOpens, remoteUnavailable, waysToOpen } from './lock-connection';

const NOW = Date.parse('2026-11-23T12:00:00.000Z');
const online = { name: 'Gate', online: true, lastSeenAt: '2026-11-23T11:59:50.000Z' };
const offline = { name: 'Gate', online: false, lastSeenAt: '2026-11-23T10:00:00.000Z' };
const never = { name: 'Bike room', online: false, lastSeenAt: null };

describe('lock connection in words', () => {
  it('says online, offline since when, or never connected', () => {
    expect(connectionText(online, NOW)).toBe('Online');
    expect(connectionText(offline, NOW)).toBe('Offline, last seen 2 hours ago');
    expect(connectionText(never, NOW)).toBe('Never connected');
  });

  it('gives the reason a remote command cannot be sent, only when the lock is not connected', () => {
    expect(remoteUnavailable(online, NOW)).toBeNull();
    expect(remoteUnavailable(offline, NOW)).toBe(
      'Gate is offline (last seen 2 hours ago): it cannot be opened from here until it is back online.',
    );
    expect(remoteUnavailable(never, NOW)).toBe(
      'Bike room has never connected: it cannot be opened from here until it connects.',
    );
  });

  it('counts a QR code as opening a lock that has its key (it connected once) and the person’s app entry', () => {
    expect(qrOpens({ ...offline, credentials: ['remote'] })).toBe(true);
    expect(qrOpens({ ...never, credentials: ['remote', 'code'] })).toBe(false);
    expect(qrOpens({ ...online, credentials: ['code'] })).toBe(false);
  });

  it('names the ways to open, each once', () => {
    expect(waysToOpen(['code', 'remote', 'qr'])).toBe('App and QR code · Code');
    expect(waysToOpen(['rfid', 'fingerprint'])).toBe('Card · Fingerprint');
  });
});
