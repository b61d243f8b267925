import type { Key } from '@latchkey/shared';
import { describe, expect, it } from 'vitest';
import { describeKeyEvent, listNames } from './key-text';

const key: Key = {
  _id: 'key-1',
  name: 'Main entrance',
  type: 'physical',
  number: 'A-017',
  holder: { _id: 'user-2', email: 'grace@example.com', name: 'Grace Hopper' },
  devices: [{ _id: 'device-1', name: 'Front door' }],
  validFrom: null,
  validUntil: null,
  createdAt: '2026-01-01T00:00:00.000Z',
};

describe('describeKeyEvent', () => {
  it('says what happened to the key', () => {
    expect(describeKeyEvent({ action: 'key.return', before: key, after: { ...key, holder: null } })).toEqual({
      title: 'Returned',
      detail: 'Grace Hopper gave it back',
    });
    expect(
      describeKeyEvent({
        action: 'key.link_device',
        before: key,
        after: { ...key, devices: [...key.devices, { _id: 'device-2', name: 'Back gate' }] },
      }),
    ).toEqual({ title: 'Lock linked', detail: 'Works at Back gate' });
    expect(
      describeKeyEvent({ action: 'key.unlink_device', before: key, after: { ...key, devices: [] } }).detail,
    ).toBe('No longer works at Front door');
    expect(
      describeKeyEvent({
        action: 'key.update',
        before: key,
        after: { ...key, name: 'Lobby', number: 'A-018' },
      }).detail,
    ).toBe('Changed name “Main entrance” → “Lobby”; number A-017 → A-018');
    expect(describeKeyEvent({ action: 'key.delete', before: key, after: null }).title).toBe('Retired');
    expect(describeKeyEvent({ action: 'key.something_new', before: null, after: null })).toEqual({
      title: 'key.something_new',
      detail: null,
    });
  });
});

describe('listNames', () => {
  it('joins names in words', () => {
    expect(listNames(['A'])).toBe('A');
    expect(listNames(['A', 'B', 'C'])).toBe('A, B and C');
  });
});
