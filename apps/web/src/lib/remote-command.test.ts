import type { DeviceCommandRecord } from '@latchkey/shared';
import { describe, expect, it } from 'vitest';
import { commandOutcome } from './remote-command';

const command = (overrides: Partial<DeviceCommandRecord> = {}): DeviceCommandRecord => ({
  commandId: 'c1',
  deviceId: 'd1',
  userId: 'u1',
  action: 'unlock',
  status: 'pending',
  error: null,
  // Thirty seconds of validity on the server's clock (MQTT_COMMAND_TTL_S).
  createdAt: '2026-11-23T10:00:00.000Z',
  expiresAt: '2026-11-23T10:00:30.000Z',
  answeredAt: null,
  ...overrides,
});

describe('commandOutcome', () => {
  it('waits quietly for three seconds, then says it was sent and how long it stays valid', () => {
    expect(commandOutcome(command(), 'Bike room', 1000)).toEqual({
      tone: 'wait',
      text: 'Waiting for Bike room to answer…',
    });
    expect(commandOutcome(command(), 'Bike room', 5000).text).toBe(
      'Sent; waiting for Bike room to answer (expires in 25 s).',
    );
    expect(commandOutcome(command(), 'Bike room', 30_500).text).toBe(
      'Sent; Bike room has not answered and the command is expiring.',
    );
  });

  it('names the lock in its answer, and says what an expiry means', () => {
    expect(commandOutcome(command({ status: 'ok' }), 'Bike room')).toEqual({
      tone: 'ok',
      text: 'Bike room unlocked.',
    });
    expect(commandOutcome(command({ status: 'ok', action: 'lock' }), 'Gate').text).toBe('Gate locked.');
    expect(commandOutcome(command({ status: 'expired' }), 'Gate')).toEqual({
      tone: 'fail',
      text: 'Gate did not answer in time: it may have just gone offline. Nothing was done.',
    });
    expect(commandOutcome(command({ status: 'failed', error: 'jammed' }), 'Gate').text).toBe(
      'Gate tried but is jammed.',
    );
  });
});
