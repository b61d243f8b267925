import type { Kysely } from 'kysely';
import {
  addCollectionChangeTriggers,
  dropCollectionChangeTriggers,
  type ChangeFeed,
} from './2026-11-27-0042-collections';

// Frozen: never edit a migration that has shipped; add a new one.
// Issue 21, item 3 (docs/decisions.md "Collections"): the change log of `aithread`, a support
// request's thread. The request's own row changes the thread when what a thread shows changes
// (its kind, description, status, who took it on), not when only its updated_at moves; a message
// or an image added changes its thread (child tables, only while the request exists). Requests are
// never deleted, so there are no tombstones.
const FEEDS: ChangeFeed[] = [
  {
    collection: 'aithread',
    table: 'support_requests',
    recordColumn: 'id',
    columns: ['type', 'description', 'status', 'assignee_id'],
  },
  {
    collection: 'aithread',
    table: 'support_messages',
    recordColumn: 'request_id',
    parentTable: 'support_requests',
  },
  {
    collection: 'aithread',
    table: 'support_images',
    recordColumn: 'request_id',
    parentTable: 'support_requests',
  },
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const feed of FEEDS) await addCollectionChangeTriggers(db, feed);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const feed of [...FEEDS].reverse()) await dropCollectionChangeTriggers(db, feed);
}
