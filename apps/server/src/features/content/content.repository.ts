import crypto from 'node:crypto';
import type { Database } from '../../db/database';
import type { ContentPageRow, ContentPageVersionRow } from '../../db/schema';

// Content pages and their versions, and the hidden navigation entries: deployment-wide, owned by
// no portal (platform staff keep them; anyone reads the published pages).

/** What a save writes: the page's fields, who saved it, when, and what it restored. */
export interface PageSave {
  topic: string;
  title: string;
  section: string;
  body: string;
  published: boolean;
  savedBy: string | null;
  savedAt: string;
  restoredFrom: number | null;
}

export type PageWithEditor = ContentPageRow & { editor_first: string | null; editor_last: string | null };
export type VersionWithEditor = ContentPageVersionRow & {
  editor_first: string | null;
  editor_last: string | null;
};

export function findPage(db: Database, topic: string): Promise<PageWithEditor | undefined> {
  return db
    .selectFrom('content_pages as p')
    .leftJoin('users as u', 'u.id', 'p.updated_by')
    .selectAll('p')
    .select(['u.first_name as editor_first', 'u.last_name as editor_last'])
    .where('p.topic', '=', topic)
    .executeTakeFirst();
}

/** Every page, or only the published ones, by section and title. */
export function listPages(db: Database, options: { publishedOnly: boolean }): Promise<PageWithEditor[]> {
  let query = db
    .selectFrom('content_pages as p')
    .leftJoin('users as u', 'u.id', 'p.updated_by')
    .selectAll('p')
    .select(['u.first_name as editor_first', 'u.last_name as editor_last']);
  if (options.publishedOnly) query = query.where('p.published', '=', 1);
  return query.orderBy('p.section').orderBy('p.title').orderBy('p.topic').execute();
}

export function listVersions(db: Database, topic: string): Promise<VersionWithEditor[]> {
  return db
    .selectFrom('content_page_versions as v')
    .leftJoin('users as u', 'u.id', 'v.saved_by')
    .selectAll('v')
    .select(['u.first_name as editor_first', 'u.last_name as editor_last'])
    .where('v.topic', '=', topic)
    .orderBy('v.version', 'desc')
    .execute();
}

export function findVersion(
  db: Database,
  topic: string,
  version: number,
): Promise<ContentPageVersionRow | undefined> {
  return db
    .selectFrom('content_page_versions')
    .selectAll()
    .where('topic', '=', topic)
    .where('version', '=', version)
    .executeTakeFirst();
}

/**
 * Writes a new version and makes it the page's current one; call inside a transaction. The
 * version number is the page's next; the unique (topic, version) index refuses a concurrent
 * save that read the same number, so no version is ever overwritten.
 */
export async function savePageVersion(db: Database, save: PageSave): Promise<number> {
  const current = await db
    .selectFrom('content_pages')
    .select('version')
    .where('topic', '=', save.topic)
    .executeTakeFirst();
  const version = (current?.version ?? 0) + 1;
  const fields = {
    title: save.title,
    section: save.section,
    body: save.body,
    published: save.published ? 1 : 0,
  };
  if (current) {
    await db
      .updateTable('content_pages')
      .set({ ...fields, version, updated_by: save.savedBy, updated_at: save.savedAt })
      .where('topic', '=', save.topic)
      .where('version', '=', current.version)
      .execute();
  } else {
    await db
      .insertInto('content_pages')
      .values({ topic: save.topic, ...fields, version, updated_by: save.savedBy, updated_at: save.savedAt })
      .execute();
  }
  await db
    .insertInto('content_page_versions')
    .values({
      id: crypto.randomUUID(),
      topic: save.topic,
      version,
      ...fields,
      restored_from: save.restoredFrom,
      saved_by: save.savedBy,
      saved_at: save.savedAt,
    })
    .execute();
  return version;
}

/** The navigation entries hidden now. */
export async function listHiddenNav(db: Database): Promise<string[]> {
  const rows = await db
    .selectFrom('nav_visibility')
    .select('nav_key')
    .where('hidden', '=', 1)
    .orderBy('nav_key')
    .execute();
  return rows.map((row) => row.nav_key);
}

export async function setNavHidden(
  db: Database,
  key: string,
  hidden: boolean,
  by: string | null,
  at: string,
): Promise<void> {
  const values = { hidden: hidden ? 1 : 0, updated_by: by, updated_at: at };
  await db
    .insertInto('nav_visibility')
    .values({ nav_key: key, ...values })
    .onConflict((oc) => oc.column('nav_key').doUpdateSet(values))
    .execute();
}

export async function setResellerBrand(
  db: Database,
  resellerId: string,
  brand: string | null,
): Promise<void> {
  await db.updateTable('resellers').set({ brand }).where('id', '=', resellerId).execute();
}
