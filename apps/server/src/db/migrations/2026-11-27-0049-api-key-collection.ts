import type { Kysely } from 'kysely';
import {
  addCollectionChangeTriggers,
  dropCollectionChangeTriggers,
  type ChangeFeed,
} from './2026-11-27-0042-collections';

// Frozen: never edit a migration that has shipped; add a new one.
// Issue 21, item 3 (docs/decisions.md "Collections"): the change log of the `apikeys` collection.
// A key's last use (time and address) is written as the key is used: no change, so only the other
// columns its record shows feed the log. A revoked key (kept, for the keys page) is a tombstone.
const FEED: ChangeFeed = {
  collection: 'apikeys',
  table: 'api_keys',
  recordColumn: 'id',
  columns: ['name', 'scopes_json', 'allowed_addresses_json', 'created_by', 'expires_at', 'revoked_at'],
  deletedWhen: (row) => `${row}.revoked_at is not null`,
};

export async function up(db: Kysely<any>): Promise<void> {
  await addCollectionChangeTriggers(db, FEED);
}

export async function down(db: Kysely<any>): Promise<void> {
  await dropCollectionChangeTriggers(db, FEED);
}
