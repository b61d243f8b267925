import type { Kysely } from 'kysely';
import { timestampType } from '../column-types';

// Frozen: never edit a migration that has shipped; add a new one.
// Issue 20, item 6 (docs/decisions.md "Content pages, CMS mode and brands"): the deployment's
// content pages (the brief's `info` collection) with every saved version, the navigation entries
// platform staff hide (the brief's `nav` collection), and the brand a reseller's customers see.
export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);

  // One row per page: its current version, copied from content_page_versions on each save.
  await db.schema
    .createTable('content_pages')
    .addColumn('topic', 'text', (c) => c.primaryKey().notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('section', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('published', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('updated_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();

  // Every save, never changed or deleted: the page's history (who, when) and what a restore copies.
  await db.schema
    .createTable('content_page_versions')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('topic', 'text', (c) => c.notNull().references('content_pages.topic').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('section', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('published', 'integer', (c) => c.notNull())
    .addColumn('restored_from', 'integer')
    .addColumn('saved_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('saved_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('content_page_versions_topic_uq')
    .on('content_page_versions')
    .columns(['topic', 'version'])
    .unique()
    .execute();

  // A navigation entry (by its screen's address) hidden or shown again, deployment-wide.
  await db.schema
    .createTable('nav_visibility')
    .addColumn('nav_key', 'text', (c) => c.primaryKey().notNull())
    .addColumn('hidden', 'integer', (c) => c.notNull())
    .addColumn('updated_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();

  // The brand a reseller's customers see (NULL: the host's brand).
  await db.schema.alterTable('resellers').addColumn('brand', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('resellers').dropColumn('brand').execute();
  await db.schema.dropTable('nav_visibility').execute();
  await db.schema.dropTable('content_page_versions').execute();
  await db.schema.dropTable('content_pages').execute();
}
