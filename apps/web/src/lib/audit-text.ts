import type { AuditEntry } from '@latchkey/shared';

/** The entity types the change log records, as people call them. */
export const ENTITY_LABELS: Record<string, string> = {
  portal: 'Portal',
  device: 'Lock',
  group: 'Group',
  member: 'Person',
  access_code: 'Access code',
  schedule: 'Schedule',
  lockout: 'Lockout',
  rfid: 'Card',
  fingerprint: 'Fingerprint',
  key: 'Key',
  company_code: 'Company code',
  device_invite: 'Guest invite',
  alert_rule: 'Alert rule',
};

/** Action subjects that are not entity types ("invite.create" is a device invite). */
const SUBJECTS: Record<string, string> = {
  invite: 'Guest invite',
};

export const ENTITY_OPTIONS = Object.entries(ENTITY_LABELS).map(([value, label]) => ({ value, label }));

/** Words of an action code as people say them ("group.device.add" → "Group lock added"). */
const WORDS: Record<string, string> = {
  device: 'lock',
  user: 'person',
  member: 'person',
  access_code: 'access code',
  rfid: 'card',
};

const PAST: Record<string, string> = {
  create: 'created',
  update: 'changed',
  delete: 'deleted',
  remove: 'removed',
  add: 'added',
  set: 'set',
  clear: 'cleared',
  suspend: 'suspended',
  activate: 'activated',
  grant: 'granted',
  revoke: 'revoked',
  resend: 'sent again',
  hand_over: 'handed over',
  return: 'returned',
  link_device: 'linked to a lock',
  unlink_device: 'unlinked from a lock',
  link_user: 'given to another person',
};

export function entityLabel(entityType: string): string {
  return ENTITY_LABELS[entityType] ?? entityType.replace(/_/g, ' ');
}

/** Actions whose words do not follow "entity + past tense". */
const WHOLE_ACTIONS: Record<string, string> = {
  'device.command.unlock': 'Remote unlock sent',
  'device.command.lock': 'Remote lock sent',
  'device.synclock.token': 'Credentials taken to the lock by phone',
  'portal.create': 'Portal created',
  'developer_call.run': 'API call run by platform staff (API console)',
};

/** "device.create" → "Lock created"; "group.user.add" → "Group user added". */
export function actionText(action: string): string {
  const whole = WHOLE_ACTIONS[action];
  if (whole) return whole;
  const [entity = '', ...rest] = action.split('.');
  const words = rest.map((part) => PAST[part] ?? WORDS[part] ?? part.replace(/_/g, ' '));
  const text = [SUBJECTS[entity] ?? entityLabel(entity), ...words].join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function field(value: unknown, key: string): string | null {
  if (typeof value !== 'object' || value === null) return null;
  const found = (value as Record<string, unknown>)[key];
  return typeof found === 'string' && found ? found : null;
}

/**
 * A name for the changed record, from its state after (or before) the change: its name or email,
 * or for a link between records (a grant, a schedule, a group member) the names it links.
 */
export function entityName(entry: Pick<AuditEntry, 'before' | 'after'>): string | null {
  for (const state of [entry.after, entry.before]) {
    const name = field(state, 'name') ?? field(state, 'email');
    if (name) return name;
    const linked = ['group', 'device', 'user'].map((key) => field(state, key)).filter(Boolean);
    if (linked.length > 0) return linked.join(' · ');
  }
  return null;
}

/** The top-level fields whose value differs between before and after. */
export function changedFields(entry: Pick<AuditEntry, 'before' | 'after'>): string[] {
  const before =
    typeof entry.before === 'object' && entry.before ? (entry.before as Record<string, unknown>) : {};
  const after =
    typeof entry.after === 'object' && entry.after ? (entry.after as Record<string, unknown>) : {};
  if (!entry.before || !entry.after) return [];
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key])).sort();
}

/** Start (00:00) or end (just before the next 00:00) of a local calendar day, as ISO with offset. */
export function dayBoundary(date: string, edge: 'start' | 'end'): string | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]) - 1, Number(match[3])];
  const instant =
    edge === 'start' ? new Date(year, month, day) : new Date(new Date(year, month, day + 1).getTime() - 1);
  return Number.isNaN(instant.getTime()) ? undefined : instant.toISOString();
}
