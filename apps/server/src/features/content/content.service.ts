import type {
  BrandId,
  ContentPage,
  ContentPageInput,
  ContentPageList,
  ContentVersionList,
  InfoIndex,
  InfoPage,
} from '@latchkey/shared';
import { AppError } from '../../base/http/errors';
import { brandOfPortal } from '../../base/tenancy/portal-brand';
import type { Database } from '../../db/database';
import { nowIso, toIso } from '../../db/mappers';
import { requireResellerOf } from '../resellers/resellers.service';
import {
  findPage,
  findVersion,
  listHiddenNav,
  listPages,
  listVersions,
  savePageVersion,
  setNavHidden,
  setResellerBrand,
  type PageWithEditor,
} from './content.repository';

type Section = InfoPage['section'];
const asSection = (value: string): Section => (value === 'legal' ? 'legal' : 'help');

function editorName(first: string | null, last: string | null): string | null {
  if (first === null && last === null) return null;
  return `${first ?? ''} ${last ?? ''}`.trim() || null;
}

function toInfoPage(row: PageWithEditor): InfoPage {
  return {
    topic: row.topic,
    title: row.title,
    section: asSection(row.section),
    body: row.body,
    version: row.version,
    updatedAt: toIso(row.updated_at),
  };
}

function toContentPage(row: PageWithEditor): ContentPage {
  return {
    ...toInfoPage(row),
    published: row.published === 1,
    updatedBy: editorName(row.editor_first, row.editor_last),
  };
}

/** GET info/{topic}: a published page; a draft or an unknown topic is the same 404. */
export async function getPublishedPage(db: Database, topic: string): Promise<InfoPage> {
  const row = await findPage(db, topic);
  if (!row || row.published !== 1) throw AppError.notFound('Page');
  return toInfoPage(row);
}

/** GET info: the published pages without their bodies. */
export async function listPublishedPages(db: Database): Promise<InfoIndex> {
  const rows = await listPages(db, { publishedOnly: true });
  return { pages: rows.map((row) => omitBody(toInfoPage(row))) };
}

function omitBody<T extends { body: string }>(page: T): Omit<T, 'body'> {
  const { body: _body, ...rest } = page;
  return rest;
}

/** Platform staff: every page, drafts too. */
export async function listAllPages(db: Database): Promise<ContentPageList> {
  const rows = await listPages(db, { publishedOnly: false });
  return { pages: rows.map((row) => omitBody(toContentPage(row))) };
}

/** Platform staff: one page as it is now, published or not. */
export async function getPage(db: Database, topic: string): Promise<ContentPage> {
  const row = await findPage(db, topic);
  if (!row) throw AppError.notFound('Page');
  return toContentPage(row);
}

/**
 * Saves a page as its next version (a new topic starts at version 1). Every save is kept, with who
 * and when: the version history is the page's audit trail (pages belong to no portal's log).
 */
export async function savePage(
  db: Database,
  topic: string,
  input: ContentPageInput,
  savedBy: string | null,
): Promise<ContentPage> {
  await db
    .transaction()
    .execute((trx) =>
      savePageVersion(trx, { topic, ...input, savedBy, savedAt: nowIso(), restoredFrom: null }),
    );
  return getPage(db, topic);
}

/** A page's versions, newest first; 404 for a page that does not exist. */
export async function getVersions(db: Database, topic: string): Promise<ContentVersionList> {
  const rows = await listVersions(db, topic);
  if (rows.length === 0) throw AppError.notFound('Page');
  return {
    versions: rows.map((row) => ({
      version: row.version,
      title: row.title,
      section: asSection(row.section),
      body: row.body,
      published: row.published === 1,
      savedAt: toIso(row.saved_at),
      savedBy: editorName(row.editor_first, row.editor_last),
      restoredFrom: row.restored_from,
    })),
  };
}

/**
 * Restores a version: its title, section, body and published flag become a new version (history
 * is never rewritten, so a restore can itself be undone).
 */
export async function restoreVersion(
  db: Database,
  topic: string,
  version: number,
  savedBy: string | null,
): Promise<ContentPage> {
  await db.transaction().execute(async (trx) => {
    const old = await findVersion(trx, topic, version);
    if (!old) throw AppError.notFound('Version');
    await savePageVersion(trx, {
      topic,
      title: old.title,
      section: old.section,
      body: old.body,
      published: old.published === 1,
      savedBy,
      savedAt: nowIso(),
      restoredFrom: version,
    });
  });
  return getPage(db, topic);
}

/** GET content/nav: what the web app hides from its navigation. */
export async function getNavVisibility(db: Database): Promise<{ hidden: string[] }> {
  return { hidden: await listHiddenNav(db) };
}

/** Hides or shows a navigation entry for everyone. */
export async function setNavVisibility(
  db: Database,
  to: string,
  hidden: boolean,
  by: string | null,
): Promise<{ hidden: string[] }> {
  await setNavHidden(db, to, hidden, by, nowIso());
  return getNavVisibility(db);
}

/** The brand of the portal a person acts in (its reseller's choice), or null for the host's. */
export async function getPortalBrand(
  db: Database,
  portalId: string | null,
): Promise<{ brand: BrandId | null }> {
  return { brand: portalId ? await brandOfPortal(db, portalId) : null };
}

/** A reseller chooses the brand its customers see; 404 for someone with no reseller account. */
export async function setOwnResellerBrand(
  db: Database,
  userId: string,
  brand: BrandId | null,
): Promise<{ brand: BrandId | null }> {
  const reseller = await requireResellerOf(db, userId);
  await setResellerBrand(db, reseller.id, brand);
  return { brand };
}
