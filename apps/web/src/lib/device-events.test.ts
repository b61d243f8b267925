import type { DeviceEvent } from '@latchkey/shared';
import { describe, expect, it } from 'vitest';
import { eventSentence } from './device-events';

const event = (overrides: Partial<DeviceEvent> = {}): DeviceEvent => ({
  _id: 'event-1',
  eventId: 'lock-event-1',
  device: { _id: 'device-1', name: 'Front door' },
  type: 'unlock',
  method: 'rfid',
  user: { _id: 'user-2', name: 'Grace Hopper' },
  credentialId: 'cred-1',
  reason: null,
  occurredAt: '2026-11-23T14:00:00.000Z',
  receivedAt: '2026-11-23T14:00:01.000Z',
  ...overrides,
});

describe('eventSentence', () => {
  it('says who operated the lock and how', () => {
    expect(eventSentence(event())).toBe('Front door unlocked by Grace Hopper with a card');
    expect(eventSentence(event(), false)).toBe('Unlocked by Grace Hopper with a card');
    expect(eventSentence(event({ type: 'lock', user: null, method: 'manual' }))).toBe(
      'Front door locked with the handle inside',
    );
    expect(eventSentence(event({ type: 'lock', user: null, method: null }), false)).toBe('Locked');
  });

  it('says why a lock refused', () => {
    expect(eventSentence(event({ type: 'denied', reason: 'outside_schedule' }))).toBe(
      'Front door refused Grace Hopper (outside their schedule)',
    );
    expect(
      eventSentence(
        event({ type: 'denied', user: null, method: 'code', reason: 'unknown_credential' }),
        false,
      ),
    ).toBe('Refused an unknown code');
  });

  it('words alarms and door states', () => {
    expect(eventSentence(event({ type: 'tamper' }))).toBe('Tamper alarm at Front door');
    expect(eventSentence(event({ type: 'battery_low' }))).toBe('Front door reported a low battery');
    expect(eventSentence(event({ type: 'door_ajar' }), false)).toBe('The door was left open');
  });
});
