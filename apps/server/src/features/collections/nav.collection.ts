import { navVisibilityInputSchema } from '@latchkey/shared';
import { z } from 'zod';
import { getNavVisibility } from '../content/content.service';
import { defineCollection } from './registry';

/**
 * `nav`: the navigation entries platform staff hid deployment-wide (features/content,
 * `nav_visibility`), one record per hidden entry (its screen address and `hidden: true`), as
 * GET content/nav reads them, for any member, read-only: hiding and showing is PUT content/nav,
 * for platform staff. An entry shown again is not listed (shown is every entry's default).
 */
export const navCollection = defineCollection({
  name: 'nav',
  feature: 'content',
  // No route names one entry (list only); an entry is named by its screen address.
  idKind: 'portalId',
  record: navVisibilityInputSchema,
  list: {
    access: 'member',
    summary: 'The navigation entries hidden for everyone, by screen address (as GET content/nav)',
    filter: z.strictObject({}),
    handler: async (caller) => {
      const { hidden } = await getNavVisibility(caller.db);
      const items = hidden.map((to) => ({ to, hidden: true }));
      return { items, total: items.length };
    },
  },
});
