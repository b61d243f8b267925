import { keySchema, type AuditEntry, type Key } from '@latchkey/shared';
import { formatValidity } from '@/lib/format';

/** "1 lock", "3 locks". */
export const lockCount = (count: number) => (count === 1 ? '1 lock' : `${count} locks`);

/** "Front door", "Front door and Back gate", "Front door, Back gate and Garage". */
export function listNames(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)!}`;
}

function asKey(state: unknown): Key | null {
  const parsed = keySchema.safeParse(state);
  return parsed.success ? parsed.data : null;
}

const holderName = (holder: Key['holder']) => (holder ? holder.name || holder.email : null);

/** The zone a key's times are read in: its locks' when they share one, else the portal's (undefined). */
function zoneOf(key: Key): string | undefined {
  const zones = new Set(key.devices.flatMap((device) => (device.timeZone ? [device.timeZone] : [])));
  return zones.size === 1 ? [...zones][0] : undefined;
}

/** What the key's fields became in an update, in words. */
function changes(before: Key, after: Key): string[] {
  const out: string[] = [];
  if (before.name !== after.name) out.push(`name “${before.name}” → “${after.name}”`);
  if (before.number !== after.number) out.push(`number ${before.number ?? '—'} → ${after.number ?? '—'}`);
  if (before.validFrom !== after.validFrom || before.validUntil !== after.validUntil) {
    out.push(
      `validity ${formatValidity(before.validFrom, before.validUntil, zoneOf(before), { zone: true })} → ${formatValidity(after.validFrom, after.validUntil, zoneOf(after), { zone: true })}`,
    );
  }
  return out;
}

const deviceNames = (from: Key | null, without: Key | null) => {
  const known = new Set((without?.devices ?? []).map((device) => device._id));
  return (from?.devices ?? []).filter((device) => !known.has(device._id)).map((device) => device.name);
};

export interface KeyEvent {
  /** "Handed over" */
  title: string;
  /** "From Ada Lovelace to Grace Hopper" */
  detail: string | null;
}

/** An entry of a key's history (GET keys/{id}/history) in words. */
export function describeKeyEvent(entry: Pick<AuditEntry, 'action' | 'before' | 'after'>): KeyEvent {
  const before = asKey(entry.before);
  const after = asKey(entry.after);
  switch (entry.action) {
    case 'key.create': {
      const parts = [];
      if (after?.holder) parts.push(`Handed to ${holderName(after.holder)}`);
      if (after?.devices.length) parts.push(`works at ${listNames(after.devices.map((d) => d.name))}`);
      return { title: 'Created', detail: parts.length ? parts.join('; ') : null };
    }
    case 'key.update': {
      const list = before && after ? changes(before, after) : [];
      return { title: 'Changed', detail: list.length ? `Changed ${list.join('; ')}` : null };
    }
    case 'key.hand_over': {
      const to = holderName(after?.holder ?? null);
      const from = holderName(before?.holder ?? null);
      if (!to) return { title: 'Handed over', detail: null };
      return { title: 'Handed over', detail: from ? `From ${from} to ${to}` : `To ${to}` };
    }
    case 'key.return': {
      const from = holderName(before?.holder ?? null);
      return { title: 'Returned', detail: from ? `${from} gave it back` : null };
    }
    case 'key.link_device': {
      const names = deviceNames(after, before);
      return { title: 'Lock linked', detail: names.length ? `Works at ${listNames(names)}` : null };
    }
    case 'key.unlink_device': {
      const names = deviceNames(before, after);
      return {
        title: 'Lock unlinked',
        detail: names.length ? `No longer works at ${listNames(names)}` : null,
      };
    }
    case 'key.delete':
      return { title: 'Retired', detail: 'It opens nothing from now on' };
    default:
      return { title: entry.action, detail: null };
  }
}
