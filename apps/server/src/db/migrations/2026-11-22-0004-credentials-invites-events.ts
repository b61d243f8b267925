import { sql, type Kysely } from 'kysely';
import { timestampType } from '../column-types';

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);
  const portalRef = 'portals.id';

  // Who a credential belongs to (person, company, guest, master), and its variant within its kind:
  // a key's type (physical, digital), a fingerprint's finger.
  await db.schema
    .alterTable('credentials')
    .addColumn('holder_type', 'text', (c) => c.notNull().defaultTo('person'))
    .execute();
  await db.schema.alterTable('credentials').addColumn('variant', 'text').execute();
  await db.updateTable('credentials').set({ holder_type: 'company' }).where('user_id', 'is', null).execute();

  // Fingerprint template ids are only unique per lock (checked with credential_devices), so they
  // leave the portal-wide uniqueness of live secrets.
  await db.schema.dropIndex('credentials_live_secret_uq').execute();
  await db.schema
    .createIndex('credentials_live_secret_uq')
    .on('credentials')
    .columns(['portal_id', 'kind', 'secret'])
    .unique()
    .where(sql<boolean>`revoked_at is null and kind <> 'fingerprint'`)
    .execute();

  // The locks a credential is bound to: a fingerprint's reader, a key's locks, a guest's or master
  // code's lock. A credential without rows here works wherever its holder has access.
  await db.schema
    .createTable('credential_devices')
    .addColumn('portal_id', 'text', (c) => c.notNull().references(portalRef).onDelete('cascade'))
    .addColumn('credential_id', 'text', (c) => c.notNull())
    .addColumn('device_id', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('credential_devices_pk', ['portal_id', 'credential_id', 'device_id'])
    .execute();
  await db.schema
    .createIndex('credential_devices_device_idx')
    .on('credential_devices')
    .columns(['portal_id', 'device_id'])
    .execute();

  await db.schema
    .createTable('device_invites')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('portal_id', 'text', (c) => c.notNull().references(portalRef).onDelete('cascade'))
    .addColumn('device_id', 'text', (c) => c.notNull())
    .addColumn('credential_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('phone', 'text')
    .addColumn('schedule_json', 'text', (c) => c.notNull())
    .addColumn('sent_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_sent_at', ts)
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addColumn('deleted_at', ts)
    .execute();
  await db.schema
    .createIndex('device_invites_device_idx')
    .on('device_invites')
    .columns(['portal_id', 'device_id'])
    .execute();

  // What locks report. (device_id, event_id) is unique: a lock resends until acknowledged and the
  // event is kept once.
  await db.schema
    .createTable('device_events')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('portal_id', 'text', (c) => c.notNull().references(portalRef).onDelete('cascade'))
    .addColumn('device_id', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('method', 'text')
    .addColumn('credential_id', 'text')
    .addColumn('user_id', 'text')
    .addColumn('reason', 'text')
    .addColumn('occurred_at', ts, (c) => c.notNull())
    .addColumn('received_at', ts, (c) => c.notNull())
    .addUniqueConstraint('device_events_device_event_uq', ['device_id', 'event_id'])
    .execute();
  await db.schema
    .createIndex('device_events_portal_occurred_idx')
    .on('device_events')
    .columns(['portal_id', 'occurred_at'])
    .execute();

  // The people list sorts and pages by these without visiting every user row.
  await db.schema
    .createIndex('memberships_portal_created_idx')
    .on('memberships')
    .columns(['portal_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('memberships_portal_created_idx').execute();
  await db.schema.dropTable('device_events').execute();
  await db.schema.dropTable('device_invites').execute();
  await db.schema.dropTable('credential_devices').execute();
}
