import type { Touch } from '../../base/access-changes/touched-locks';
import type { ListingRow } from '../../db/schema';

// What the listings feature announces (base/events/domain-events.ts). The stays stand on the
// listings, so listings import nothing of stays: the stays listen (features/stays/listing-stays.ts).
declare module '../../base/events/domain-events' {
  interface DomainEvents {
    /**
     * A listing's locks, times, share-lock settings or access list changed, inside a change to
     * access: its current and upcoming stays' access follows at once (a lock whose memory would
     * overflow refuses the change with 409).
     */
    ListingAccessChanged: { listing: ListingRow; touch: Touch; now: Date };
    /** A listing is being deleted: refused (409) while it has stays that have not ended. */
    ListingDeleting: { listing: ListingRow; now: Date };
  }
}

export {};
