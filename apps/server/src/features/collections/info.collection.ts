import { infoPageSchema, type InfoPage } from '@latchkey/shared';
import { z } from 'zod';
import { AppError } from '../../base/http/errors';
import { getPublishedPage, listPublishedPages } from '../content/content.service';
import { defineCollection } from './registry';

/**
 * `info`: the published content pages (features/content: terms, privacy, imprint, help topics),
 * the deployment's and the same in every portal, for any member. One page by its topic is
 * GET info/{topic}, content's public route already at the collection's own path; the collection
 * adds the list as a page (POST info), each page with its body as GET info/{topic} answers it.
 * Drafts are left out, as on the public routes; pages are edited by platform staff only.
 */
export const infoCollection = defineCollection({
  name: 'info',
  feature: 'content',
  // No route here names one page by id: a page is named by its topic (GET info/{topic}).
  idKind: 'portalId',
  record: infoPageSchema,
  list: {
    access: 'member',
    summary: 'The published content pages with their bodies, by section and title (as GET info)',
    filter: z.strictObject({}),
    handler: async (caller) => {
      const items: InfoPage[] = [];
      for (const { topic } of (await listPublishedPages(caller.db)).pages) {
        try {
          items.push(await getPublishedPage(caller.db, topic));
        } catch (error) {
          // Unpublished between the two reads: it is no longer in the list.
          if (!(error instanceof AppError && error.status === 404)) throw error;
        }
      }
      return { items, total: items.length };
    },
  },
});
