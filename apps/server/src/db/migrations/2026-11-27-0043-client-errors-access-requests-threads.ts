import type { Kysely } from 'kysely';
import { timestampType } from '../column-types';
import { addCollectionChangeTriggers, dropCollectionChangeTriggers } from './2026-11-27-0042-collections';

// Frozen: never edit a migration that has shipped; add a new one.
// Issue 21: client error reports (the `error` collection: one row per fingerprint, for platform
// staff) and access requests (the `accessRequest` collection: a person asks for a lock). The
// `aithread` collection is the support requests' threads (no table of its own) and `calendarEvent`
// is read from the stays, owner blocks, lockouts and invites (docs/decisions.md "Collections with no
// feature yet").
const ACCESS_REQUEST_FEED = { collection: 'accessRequest', table: 'access_requests', recordColumn: 'id' };

export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);

  await db.schema
    .createTable('client_errors')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    /** sha256 of message, top stack frame and build: one row per distinct error. */
    .addColumn('fingerprint', 'text', (c) => c.notNull().unique())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('top_frame', 'text', (c) => c.notNull())
    /** The first report's stack, address and browser (later ones count and move last_seen). */
    .addColumn('stack', 'text', (c) => c.notNull())
    .addColumn('route', 'text', (c) => c.notNull())
    .addColumn('build', 'text', (c) => c.notNull())
    .addColumn('user_agent', 'text', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    /** open | resolved (a resolved error seen again is open again). */
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('first_seen', ts, (c) => c.notNull())
    .addColumn('last_seen', ts, (c) => c.notNull())
    .addColumn('resolved_at', ts)
    .addColumn('resolved_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .execute();
  await db.schema.createIndex('client_errors_seen_idx').on('client_errors').columns(['last_seen']).execute();
  await db.schema
    .createIndex('client_errors_status_idx')
    .on('client_errors')
    .columns(['status', 'last_seen'])
    .execute();

  await db.schema
    .createTable('access_requests')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('portal_id', 'text', (c) => c.notNull().references('portals.id').onDelete('cascade'))
    .addColumn('device_id', 'text', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('note', 'text', (c) => c.notNull())
    /** waiting | granted | declined | withdrawn */
    .addColumn('status', 'text', (c) => c.notNull())
    /** The schedule granted, as JSON ('null': at any time), once granted. */
    .addColumn('schedule_json', 'text')
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('answered_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('answered_at', ts)
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('access_requests_portal_idx')
    .on('access_requests')
    .columns(['portal_id', 'status', 'created_at'])
    .execute();
  await db.schema
    .createIndex('access_requests_person_idx')
    .on('access_requests')
    .columns(['portal_id', 'user_id', 'created_at'])
    .execute();
  // The accessRequest collection's changes for POST accessRequest/ls (features/collections).
  await addCollectionChangeTriggers(db, ACCESS_REQUEST_FEED);
}

export async function down(db: Kysely<any>): Promise<void> {
  await dropCollectionChangeTriggers(db, ACCESS_REQUEST_FEED);
  await db.schema.dropTable('access_requests').execute();
  await db.schema.dropTable('client_errors').execute();
}
