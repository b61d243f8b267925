import type { Kysely } from 'kysely';
import { timestampType } from '../column-types';

// Frozen: never edit a migration that has shipped; add a new one.
// Issue 20, item 4: support requests (a person's, in their portal), their thread and their images
// (docs/decisions.md "Support requests").
export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);
  const portalRef = 'portals.id';

  await db.schema
    .createTable('support_requests')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('portal_id', 'text', (c) => c.notNull().references(portalRef).onDelete('cascade'))
    /** The person who filed it (any member of the portal, basic users too). */
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    /** The screen the person was on when they filed it (an address inside the app). */
    .addColumn('nav_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    /** Platform staff who took it, or nobody yet. */
    .addColumn('assignee_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', ts, (c) => c.notNull())
    /** The last message or change: the lists' order. */
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('support_requests_portal_idx')
    .on('support_requests')
    .columns(['portal_id', 'updated_at'])
    .execute();
  await db.schema
    .createIndex('support_requests_person_idx')
    .on('support_requests')
    .columns(['portal_id', 'user_id', 'updated_at'])
    .execute();
  // The staff inbox looks across portals, newest first, often by status.
  await db.schema
    .createIndex('support_requests_inbox_idx')
    .on('support_requests')
    .columns(['status', 'updated_at'])
    .execute();
  await db.schema
    .createIndex('support_requests_updated_idx')
    .on('support_requests')
    .columns(['updated_at'])
    .execute();

  await db.schema
    .createTable('support_messages')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('portal_id', 'text', (c) => c.notNull().references(portalRef).onDelete('cascade'))
    .addColumn('request_id', 'text', (c) => c.notNull().references('support_requests.id').onDelete('cascade'))
    .addColumn('author_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    /** requester | portal | staff */
    .addColumn('author_role', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('support_messages_request_idx')
    .on('support_messages')
    .columns(['portal_id', 'request_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('support_images')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('portal_id', 'text', (c) => c.notNull().references(portalRef).onDelete('cascade'))
    .addColumn('request_id', 'text', (c) => c.notNull().references('support_requests.id').onDelete('cascade'))
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('bytes', 'integer', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('support_images_request_idx')
    .on('support_images')
    .columns(['portal_id', 'request_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('support_images').execute();
  await db.schema.dropTable('support_messages').execute();
  await db.schema.dropTable('support_requests').execute();
}
