import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
// Issue 22 (docs/bridges/zwave.md "Limits"): what a lock says it holds and takes, from its status
// (`capabilities`, device protocol v1): a Z-Wave node's own user-code slots, its code lengths and
// the credential kinds it applies, as JSON; null until a lock reports them (then its model's
// figures stand).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('devices').addColumn('capabilities_json', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('devices').dropColumn('capabilities_json').execute();
}
