import type { Kysely } from 'kysely';
import {
  addCollectionChangeTriggers,
  dropCollectionChangeTriggers,
  type ChangeFeed,
} from './2026-11-27-0042-collections';

// Frozen: never edit a migration that has shipped; add a new one.
// Issue 21, item 3 (docs/decisions.md "Collections"): the change log of the `apikeys` collection.
// A key's last use (time and address) is written as the key is used: no change, so only the other
// columns its record shows feed the log. A revoked key is kept (the keys page lists it, and get and
// list answer it with its revokedAt), so its revocation is a change of the record, not a deletion:
// ls says what get says.
const FEED: ChangeFeed = {
  collection: 'apikeys',
  table: 'api_keys',
  recordColumn: 'id',
  columns: ['name', 'scopes_json', 'allowed_addresses_json', 'created_by', 'expires_at', 'revoked_at'],
};

export async function up(db: Kysely<any>): Promise<void> {
  await addCollectionChangeTriggers(db, FEED);
}

export async function down(db: Kysely<any>): Promise<void> {
  await dropCollectionChangeTriggers(db, FEED);
}
