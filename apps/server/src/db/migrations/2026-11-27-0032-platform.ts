import type { Kysely } from 'kysely';
import { timestampType } from '../column-types';

// Frozen: never edit a migration that has shipped; add a new one.
// Issue 20, item 1 (the platform console): support sessions as records the portal's admins can see
// ("Support is acting here"), one row per portal the person acted as belongs to, ended when staff
// end the session or when it expires; feature flags per deployment and per portal (a portal's
// override wins); and the platform's own change log (flag switches, retried work) for what has no
// portal to be written to.
export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);
  await db.schema
    .createTable('support_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('portal_id', 'text', (c) => c.notNull().references('portals.id').onDelete('cascade'))
    /** The session's token carries this id (one id for every portal row of one session). */
    .addColumn('session_id', 'text', (c) => c.notNull())
    .addColumn('staff_user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('person_user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('started_at', ts, (c) => c.notNull())
    .addColumn('expires_at', ts, (c) => c.notNull())
    .addColumn('ended_at', ts)
    .execute();
  await db.schema
    .createIndex('support_sessions_portal_idx')
    .on('support_sessions')
    .columns(['portal_id', 'expires_at'])
    .execute();
  await db.schema
    .createIndex('support_sessions_session_idx')
    .on('support_sessions')
    .columns(['session_id'])
    .execute();

  await db.schema
    .createTable('deployment_feature_flags')
    .addColumn('flag', 'text', (c) => c.primaryKey().notNull())
    /** 0 or 1 on both dialects. */
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('updated_by', 'text')
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('portal_feature_flags')
    .addColumn('portal_id', 'text', (c) => c.notNull().references('portals.id').onDelete('cascade'))
    .addColumn('flag', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('updated_by', 'text')
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('portal_feature_flags_pk', ['portal_id', 'flag'])
    .execute();

  await db.schema
    .createTable('platform_audit')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('actor_user_id', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('entity_type', 'text', (c) => c.notNull())
    .addColumn('entity_id', 'text', (c) => c.notNull())
    .addColumn('portal_id', 'text')
    .addColumn('before_json', 'text')
    .addColumn('after_json', 'text')
    .addColumn('ip', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('platform_audit_created_idx')
    .on('platform_audit')
    .columns(['created_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('platform_audit').execute();
  await db.schema.dropTable('portal_feature_flags').execute();
  await db.schema.dropTable('deployment_feature_flags').execute();
  await db.schema.dropTable('support_sessions').execute();
}
