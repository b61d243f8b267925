import { AUDIT_ENTITY_TYPES, auditActionText, type AuditEntityType, type AuditEntry } from '@latchkey/shared';

/** What the change log's entries are about, to filter by (AUDIT_ENTITY_TYPES). */
export const ENTITY_OPTIONS = Object.entries(AUDIT_ENTITY_TYPES).map(([value, label]) => ({ value, label }));

export function entityLabel(entityType: string): string {
  return Object.hasOwn(AUDIT_ENTITY_TYPES, entityType)
    ? AUDIT_ENTITY_TYPES[entityType as AuditEntityType]
    : entityType.replace(/_/g, ' ');
}

/**
 * An action in words, from THE list of change-log actions (`AUDIT_ACTIONS`, which the server's
 * entries are typed by); an action no longer recorded, in an old entry, spelled out as it is.
 */
export function actionText(action: string): string {
  const words = auditActionText(action);
  if (words) return words;
  const text = action.replace(/[._]/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function field(value: unknown, key: string): string | null {
  if (typeof value !== 'object' || value === null) return null;
  const found = (value as Record<string, unknown>)[key];
  return typeof found === 'string' && found ? found : null;
}

/** The fields that name a record itself, most telling first. */
const OWN_NAMES = ['name', 'title', 'guestName', 'email', 'invoiceNumber'] as const;
/** The fields that name the records a change links or belongs to (a grant, a listing's picture). */
const LINKED_NAMES = ['group', 'device', 'user', 'listing', 'landing', 'feed'] as const;

/**
 * A name for the changed record, from its state after (or before) the change: its own name (a
 * group's, a listing's title, a stay's guest), then the names of what it links or belongs to
 * (the lock and person of a grant, the listing of a stay or a picture).
 */
export function entityName(
  entry: Pick<AuditEntry, 'before' | 'after'>,
  /** Linked records named beside the text already (the feed links the lock and the person). */
  shownApart: readonly (typeof LINKED_NAMES)[number][] = [],
): string | null {
  const linked = LINKED_NAMES.filter((key) => !shownApart.includes(key));
  for (const state of [entry.after, entry.before]) {
    const own = OWN_NAMES.map((key) => field(state, key)).find(Boolean);
    const names = [own, ...linked.map((key) => field(state, key))].filter(Boolean);
    if (names.length > 0) return names.join(' · ');
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
