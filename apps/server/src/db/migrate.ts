import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import * as foundation from './migrations/2026-11-22-0001-foundation';
import * as accessControl from './migrations/2026-11-22-0002-access-control';
import * as lockouts from './migrations/2026-11-22-0003-lockouts';
import * as credentialsInvitesEvents from './migrations/2026-11-22-0004-credentials-invites-events';
import * as mailOutbox from './migrations/2026-11-22-0005-mail-outbox';
import * as accountTokens from './migrations/2026-11-22-0006-account-tokens';
import * as twoFactor from './migrations/2026-11-22-0007-two-factor';
import * as auditSubjects from './migrations/2026-11-23-0008-audit-subjects';
import * as deviceLink from './migrations/2026-11-23-0009-device-link';
import * as eventCredentials from './migrations/2026-11-24-0010-event-credentials';
import * as alerts from './migrations/2026-11-24-0011-alerts';
import * as memberLabels from './migrations/2026-11-25-0012-member-labels';
import * as planPeriods from './migrations/2026-11-26-0013-plan-periods';
import * as backgroundJobs from './migrations/2026-11-26-0014-background-jobs';
import * as paymentsShop from './migrations/2026-11-26-0016-payments-shop';
import * as billsResellers from './migrations/2026-11-26-0017-bills-resellers';
import * as searchIndexes from './migrations/2026-11-26-0018-search-indexes';
import * as rental from './migrations/2026-11-26-0019-rental';
import * as credentialRecompute from './migrations/2026-11-26-0020-credential-recompute';
import * as memberCounts from './migrations/2026-11-26-0021-member-counts';
import * as trigramIndexUpkeep from './migrations/2026-11-26-0022-trigram-index-upkeep';
import * as authEpoch from './migrations/2026-11-26-0023-auth-epoch';
import * as liveLocksIndex from './migrations/2026-11-26-0024-live-locks-index';
import * as rentalCalendarsReviews from './migrations/2026-11-26-0025-rental-calendars-reviews';
import * as accountOffers from './migrations/2026-11-26-0026-account-offers';
import * as icalSyncRequests from './migrations/2026-11-26-0027-ical-sync-requests';
import * as orderHolds from './migrations/2026-11-26-0028-order-holds';
import * as resellerMadeMemberships from './migrations/2026-11-26-0029-reseller-made-memberships';
import * as notificationSubjects from './migrations/2026-11-27-0030-notification-subjects';
import * as pendingCommandsIndex from './migrations/2026-11-27-0031-pending-commands-index';
import * as platform from './migrations/2026-11-27-0032-platform';
import * as support from './migrations/2026-11-27-0033-support';
import * as reportSchedules from './migrations/2026-11-27-0034-report-schedules';
import * as content from './migrations/2026-11-27-0035-content';
import * as listingPrice from './migrations/2026-11-27-0036-listing-price';
import * as credentialSetBodies from './migrations/2026-11-27-0039-credential-set-bodies';
import * as apiKeys from './migrations/2026-11-27-0040-api-keys';
import * as webhooks from './migrations/2026-11-27-0041-webhooks';
import * as collections from './migrations/2026-11-27-0042-collections';
import * as clientErrorsAccessRequests from './migrations/2026-11-27-0043-client-errors-access-requests-threads';
import * as zones from './migrations/2026-11-27-0044-zones';
import * as readers from './migrations/2026-11-27-0045-readers';
import * as readerCollections from './migrations/2026-11-27-0047-reader-collections';
import * as rentalCollections from './migrations/2026-11-27-0048-rental-collections';
import * as apiKeyCollection from './migrations/2026-11-27-0049-api-key-collection';
import * as supportThreadChanges from './migrations/2026-11-27-0050-support-thread-changes';
import * as lockCapabilities from './migrations/2026-11-27-0051-lock-capabilities';
import * as eventsKeysetIndex from './migrations/2026-11-28-0052-events-keyset-index';
import * as auditLogDevices from './migrations/2026-11-28-0053-audit-log-devices';
import * as lockHistoryIndex from './migrations/2026-11-28-0054-lock-history-index';

/** Every migration, by dated name, in the order they apply. Add new ones at the end. */
const migrations: Record<string, Migration> = {
  '2026-11-22-0001-foundation': foundation,
  '2026-11-22-0002-access-control': accessControl,
  '2026-11-22-0003-lockouts': lockouts,
  '2026-11-22-0004-credentials-invites-events': credentialsInvitesEvents,
  '2026-11-22-0005-mail-outbox': mailOutbox,
  '2026-11-22-0006-account-tokens': accountTokens,
  '2026-11-22-0007-two-factor': twoFactor,
  '2026-11-23-0008-audit-subjects': auditSubjects,
  '2026-11-23-0009-device-link': deviceLink,
  '2026-11-24-0010-event-credentials': eventCredentials,
  '2026-11-24-0011-alerts': alerts,
  '2026-11-25-0012-member-labels': memberLabels,
  '2026-11-26-0013-plan-periods': planPeriods,
  '2026-11-26-0014-background-jobs': backgroundJobs,
  '2026-11-26-0016-payments-shop': paymentsShop,
  '2026-11-26-0017-bills-resellers': billsResellers,
  '2026-11-26-0018-search-indexes': searchIndexes,
  '2026-11-26-0019-rental': rental,
  '2026-11-26-0020-credential-recompute': credentialRecompute,
  '2026-11-26-0021-member-counts': memberCounts,
  '2026-11-26-0022-trigram-index-upkeep': trigramIndexUpkeep,
  '2026-11-26-0023-auth-epoch': authEpoch,
  '2026-11-26-0024-live-locks-index': liveLocksIndex,
  '2026-11-26-0025-rental-calendars-reviews': rentalCalendarsReviews,
  '2026-11-26-0026-account-offers': accountOffers,
  '2026-11-26-0027-ical-sync-requests': icalSyncRequests,
  '2026-11-26-0028-order-holds': orderHolds,
  '2026-11-26-0029-reseller-made-memberships': resellerMadeMemberships,
  '2026-11-27-0030-notification-subjects': notificationSubjects,
  '2026-11-27-0031-pending-commands-index': pendingCommandsIndex,
  '2026-11-27-0032-platform': platform,
  '2026-11-27-0033-support': support,
  '2026-11-27-0034-report-schedules': reportSchedules,
  '2026-11-27-0035-content': content,
  '2026-11-27-0036-listing-price': listingPrice,
  '2026-11-27-0039-credential-set-bodies': credentialSetBodies,
  '2026-11-27-0040-api-keys': apiKeys,
  '2026-11-27-0041-webhooks': webhooks,
  '2026-11-27-0042-collections': collections,
  '2026-11-27-0043-client-errors-access-requests-threads': clientErrorsAccessRequests,
  '2026-11-27-0044-zones': zones,
  '2026-11-27-0045-readers': readers,
  '2026-11-27-0047-reader-collections': readerCollections,
  '2026-11-27-0048-rental-collections': rentalCollections,
  '2026-11-27-0049-api-key-collection': apiKeyCollection,
  '2026-11-27-0050-support-thread-changes': supportThreadChanges,
  '2026-11-27-0051-lock-capabilities': lockCapabilities,
  '2026-11-28-0052-events-keyset-index': eventsKeysetIndex,
  '2026-11-28-0053-audit-log-devices': auditLogDevices,
  '2026-11-28-0054-lock-history-index': lockHistoryIndex,
};

/** The names of every migration, in order. */
export const migrationNames = Object.keys(migrations);

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** Brings the schema up to the newest migration; throws if one fails. */
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** Brings the schema to the named migration, up or down: how a migration's own test starts. */
export async function migrateTo(db: Kysely<any>, name: string): Promise<void> {
  const migrator = new Migrator({ db, provider });
  const { error } = await migrator.migrateTo(name);
  if (error) throw error instanceof Error ? error : new Error(String(error));
}
