import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
// Issue 19, item 3 (the host's inbox): a notification names what it is about (a stay request, a
// lock, a subscription) so the bell and the alerts screen link to where to act. JSON of
// { type, _id, name, listingId }; NULL for the notifications made before, which keep their lock.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('notifications').addColumn('subject_json', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('notifications').dropColumn('subject_json').execute();
}
