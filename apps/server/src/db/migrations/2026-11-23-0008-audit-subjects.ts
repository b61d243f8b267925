import { sql, type Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<any>): Promise<void> {
  // The lock and the person a change concerns, whatever the changed entity is (a schedule, a
  // guest invite, a group link, a card), so a lock's and a person's history find every change
  // about them.
  await db.schema.alterTable('audit_log').addColumn('device_id', 'text').execute();
  await db.schema.alterTable('audit_log').addColumn('user_id', 'text').execute();
  await db.schema
    .createIndex('audit_log_portal_device_idx')
    .on('audit_log')
    .columns(['portal_id', 'device_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('audit_log_portal_user_idx')
    .on('audit_log')
    .columns(['portal_id', 'user_id', 'created_at'])
    .execute();

  // Earlier entries: the lock is the entity itself, the first half of a schedule's "device/user"
  // id, or the lock of a guest invite; the person is the member or access code's entity, or the
  // second half of a schedule's id.
  await db
    .updateTable('audit_log')
    .set({ device_id: sql.ref('entity_id') })
    .where('entity_type', '=', 'device')
    .execute();
  await db
    .updateTable('audit_log')
    .set({ user_id: sql.ref('entity_id') })
    .where('entity_type', 'in', ['member', 'access_code'])
    .execute();
  const schedules = await db
    .selectFrom('audit_log')
    .select(['id', 'entity_id'])
    .where('entity_type', '=', 'schedule')
    .execute();
  for (const row of schedules as { id: string; entity_id: string }[]) {
    await db
      .updateTable('audit_log')
      .set({ device_id: row.entity_id.split('/')[0], user_id: row.entity_id.split('/')[1] ?? null })
      .where('id', '=', row.id)
      .execute();
  }
  await db
    .updateTable('audit_log')
    .set({
      device_id: (eb: any) =>
        eb
          .selectFrom('device_invites')
          .select('device_invites.device_id')
          .whereRef('device_invites.id', '=', 'audit_log.entity_id'),
    })
    .where('entity_type', '=', 'device_invite')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('audit_log_portal_user_idx').execute();
  await db.schema.dropIndex('audit_log_portal_device_idx').execute();
  await db.schema.alterTable('audit_log').dropColumn('user_id').execute();
  await db.schema.alterTable('audit_log').dropColumn('device_id').execute();
}
