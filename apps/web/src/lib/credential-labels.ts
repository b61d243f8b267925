import type { Finger, KeyType } from '@latchkey/shared';
import { FINGERS, KEY_TYPES } from '@latchkey/shared';

/** "right-index" → "Right index". */
export const FINGER_LABELS: Record<Finger, string> = Object.fromEntries(
  FINGERS.map((finger) => {
    const [hand = '', digit = ''] = finger.split('-');
    return [finger, `${hand.charAt(0).toUpperCase()}${hand.slice(1)} ${digit}`];
  }),
) as Record<Finger, string>;

export const FINGER_OPTIONS = FINGERS.map((finger) => ({ value: finger, label: FINGER_LABELS[finger] }));

export function fingerLabel(finger: string): string {
  return FINGER_LABELS[finger as Finger] ?? finger;
}

export const KEY_TYPE_LABELS: Record<KeyType, string> = { physical: 'Physical', digital: 'Digital' };

export const KEY_TYPE_OPTIONS = KEY_TYPES.map((type) => ({ value: type, label: KEY_TYPE_LABELS[type] }));
