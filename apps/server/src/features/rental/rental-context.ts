import type { LiveNotification } from '@latchkey/shared';
import type { StayRow } from '../../db/schema';
import type { ShareTokens } from './share-tokens';

// The rental features' own context (docs/ARCHITECTURE.md, "One-way imports"): stays, reviews,
// sharelock, calendars and rental-center take it from here, not from one another, so none of them
// imports another's service for a type. stays.plugin.ts makes it when the app starts (app.rental.deps).

/** What the rental features need besides the database: links in mail, the guest link signer. */
export interface StayDeps {
  tokens: ShareTokens;
  /** PUBLIC_URL (no trailing slash): where links in mail point. */
  publicUrl: string;
  /** Tells the portal's open screens that a stay changed (the live channel); never throws. */
  announce?: (stay: StayRow) => void;
  /** Sends a notification stored in a committed transaction to the portal's admins (live); never throws. */
  notify?: (portalId: string, notification: LiveNotification | null) => void;
}
