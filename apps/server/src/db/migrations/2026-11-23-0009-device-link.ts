import type { Kysely } from 'kysely';
import { timestampType } from '../column-types';

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);
  const portalRef = 'portals.id';

  // What a lock last reported in its status (device protocol v1).
  await db.schema.alterTable('devices').addColumn('lock_state', 'text').execute();
  await db.schema.alterTable('devices').addColumn('firmware', 'text').execute();
  await db.schema.alterTable('devices').addColumn('credentials_version', 'integer').execute();
  // The device secret in Mosquitto's own PBKDF2 form ($7$), made when the secret is issued, so the
  // broker's password file can be exported (secret_hash is a plain sha256 Mosquitto cannot check).
  // Locks added before this have none until their secret is issued again.
  await db.schema.alterTable('devices').addColumn('broker_password_hash', 'text').execute();

  // One row per lock: the credential set it should hold (versioned, with a hash of its content so an
  // unchanged set is not republished), when it was last handed to the broker and what the lock
  // confirmed. The set itself is kept so a lock reconnecting after a server restart gets the same
  // version again rather than a new one.
  await db.schema
    .createTable('device_credential_sync')
    .addColumn('device_id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('portal_id', 'text', (c) => c.notNull().references(portalRef).onDelete('cascade'))
    .addColumn('desired_version', 'integer', (c) => c.notNull())
    .addColumn('desired_hash', 'text', (c) => c.notNull())
    .addColumn('desired_set', 'text', (c) => c.notNull())
    .addColumn('desired_at', ts, (c) => c.notNull())
    .addColumn('sent_version', 'integer')
    .addColumn('sent_at', ts)
    .addColumn('confirmed_version', 'integer')
    .addColumn('confirmed_at', ts)
    .execute();
  await db.schema
    .createIndex('device_credential_sync_portal_idx')
    .on('device_credential_sync')
    .columns(['portal_id', 'device_id'])
    .execute();

  // Each credential on each lock with the version in which its current form first appeared: the
  // credential is sent once sent_version reaches it and confirmed once confirmed_version does.
  await db.schema
    .createTable('device_credential_entries')
    .addColumn('portal_id', 'text', (c) => c.notNull().references(portalRef).onDelete('cascade'))
    .addColumn('device_id', 'text', (c) => c.notNull())
    .addColumn('credential_id', 'text', (c) => c.notNull())
    .addColumn('entry_hash', 'text', (c) => c.notNull())
    .addColumn('since_version', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('device_credential_entries_pk', ['portal_id', 'device_id', 'credential_id'])
    .execute();

  // Entries the lock refused in its last credentials/ack, with its reason.
  await db.schema
    .createTable('device_credential_rejections')
    .addColumn('portal_id', 'text', (c) => c.notNull().references(portalRef).onDelete('cascade'))
    .addColumn('device_id', 'text', (c) => c.notNull())
    .addColumn('credential_id', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('rejected_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('device_credential_rejections_pk', ['portal_id', 'device_id', 'credential_id'])
    .execute();

  // Remote unlock/lock sent to a lock, and its answer.
  await db.schema
    .createTable('device_commands')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('portal_id', 'text', (c) => c.notNull().references(portalRef).onDelete('cascade'))
    .addColumn('device_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('expires_at', ts, (c) => c.notNull())
    .addColumn('answered_at', ts)
    .execute();
  await db.schema
    .createIndex('device_commands_portal_device_idx')
    .on('device_commands')
    .columns(['portal_id', 'device_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('device_commands').execute();
  await db.schema.dropTable('device_credential_rejections').execute();
  await db.schema.dropTable('device_credential_entries').execute();
  await db.schema.dropTable('device_credential_sync').execute();
  await db.schema.alterTable('devices').dropColumn('broker_password_hash').execute();
  await db.schema.alterTable('devices').dropColumn('credentials_version').execute();
  await db.schema.alterTable('devices').dropColumn('firmware').execute();
  await db.schema.alterTable('devices').dropColumn('lock_state').execute();
}
