import type { Kysely } from 'kysely';
import {
  addCollectionChangeTriggers,
  dropCollectionChangeTriggers,
  type ChangeFeed,
} from './2026-11-27-0042-collections';

// Frozen: never edit a migration that has shipped; add a new one.
// Issue 21, items 3 and 5 (docs/decisions.md "Collections"): the change log of the reader
// collections. `peripheral` is the portal's paired readers (a heartbeat's last_seen_at is no
// change; going on- or offline is); `rfidPeriph` and `fingerPrintPeriph` are the card and
// fingerprint enrollments (started, read, failed, cancelled; an expiry is computed when read, so it
// is no change). Unpairing a reader deletes its enrollments: tombstones for both.
const FEEDS: ChangeFeed[] = [
  {
    collection: 'peripheral',
    table: 'readers',
    recordColumn: 'id',
    columns: ['name', 'kind', 'online', 'firmware'],
  },
  {
    collection: 'rfidPeriph',
    table: 'reader_enrollments',
    recordColumn: 'id',
    where: (row) => `${row}.kind = 'rfid'`,
  },
  {
    collection: 'fingerPrintPeriph',
    table: 'reader_enrollments',
    recordColumn: 'id',
    where: (row) => `${row}.kind = 'fingerprint'`,
  },
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const feed of FEEDS) await addCollectionChangeTriggers(db, feed);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const feed of [...FEEDS].reverse()) await dropCollectionChangeTriggers(db, feed);
}
