import type { Database } from '../../db/database';

// Happenings the base announces and features act on, so the base imports no feature (the immich
// pattern: services announce, others listen). Listeners run in the announcer's transaction, in the
// order they registered, and a throw rolls the whole change back: a portal is never created
// without what its listeners add to it.

export interface DomainEvents {
  /** A portal row was inserted (sign-up, "create your portal", a reseller's customer, the demo). */
  PortalCreated: { portalId: string; now: string };
}

export type DomainEventListener<K extends keyof DomainEvents> = (
  db: Database,
  event: DomainEvents[K],
) => Promise<void>;

const listeners = new Map<keyof DomainEvents, Set<DomainEventListener<never>>>();

/**
 * Registers a listener for the process. Listeners get the database they run against with each
 * event, so one registration serves every app in the process (tests build many); registering the
 * same function again changes nothing.
 */
export function onDomainEvent<K extends keyof DomainEvents>(name: K, listener: DomainEventListener<K>): void {
  const set = listeners.get(name) ?? new Set();
  set.add(listener as DomainEventListener<never>);
  listeners.set(name, set);
}

/** Announces an event to its listeners, one after the other, inside `db` (call it in a transaction). */
export async function emitDomainEvent<K extends keyof DomainEvents>(
  db: Database,
  name: K,
  event: DomainEvents[K],
): Promise<void> {
  for (const listener of listeners.get(name) ?? []) await (listener as DomainEventListener<K>)(db, event);
}
