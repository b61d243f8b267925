import type { Bill } from '@latchkey/shared';

// What billing announces (base/events/domain-events.ts) for the features that stand on it
// (features/webhooks): billing imports none of them.
declare module '../../base/events/domain-events' {
  interface DomainEvents {
    /** A month was closed into its bill, inside the transaction that stores it (once per month). */
    BillClosed: { portalId: string; bill: Bill; year: number; month: number; now: Date };
  }
}

export {};
