/**
 * iCal both ways (issue 12, R2; docs/decisions.md "Rentals: calendars, iCal, reviews").
 * Export: each listing has a private feed (RFC 5545, ical-generator) at an unguessable derived
 * address, rotatable, carrying dates only. Import: feeds of other platforms, read periodically and
 * on demand; reservations become stays (source `ical`) whose guests get codes as any approved
 * stay's, changes and cancellations reach the locks at once, and a read that is empty where the
 * feed had events, or that cannot be read, is an error shown to the owner: nothing changes.
 *
 * Here: what the iCal services need from the running app, apart so that each of them can import
 * it without importing another. The export feed is ical-export.service.ts, the listing's iCal
 * settings and the feeds' records ical-feeds.service.ts, and one read of a feed (fetch, parse,
 * record the outcome) ical-sync.service.ts. Reads run only in the import job (ical-import-job.ts;
 * "sync now" queues one), and applying a read's events to stays and blocks is ical-import.ts
 * (docs/decisions.md "iCal imports run as background work").
 */
import type { ShareTokens } from '../rental/share-tokens';
import type { StayDeps } from '../rental/rental-context';
import type { FeedFetchOptions } from './feed-fetch';

export interface IcalDeps {
  stays: StayDeps;
  tokens: ShareTokens;
  /** PUBLIC_URL: the export feed's address is absolute (platforms fetch it). */
  publicUrl: string;
  fetch: Omit<FeedFetchOptions, 'etag' | 'lastModified'>;
  /** Minutes between periodic reads; 0: no periodic reads (a new feed is still due, for "sync now"). */
  syncMinutes: number;
  /** Seconds between two "sync now" of one feed (ICAL_SYNC_NOW_SECONDS). */
  syncNowSeconds: number;
  /** Where alert mail points. */
  alertsLink: string;
}
