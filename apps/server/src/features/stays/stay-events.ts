import type { StayRow } from '../../db/schema';

// What the stays announce (base/events/domain-events.ts) for the features that stand on them
// (features/webhooks): the stays import none of them.
declare module '../../base/events/domain-events' {
  interface DomainEvents {
    /**
     * A stay was asked for, approved, declined or cancelled, or its access was confirmed on every
     * lock of its listing (once per access generation): inside the transaction that records it, so
     * what listens is written with the change or not at all.
     */
    StayChanged: {
      stay: StayRow;
      change: 'requested' | 'approved' | 'declined' | 'cancelled' | 'access_ready';
      now: Date;
    };
  }
}

export {};
