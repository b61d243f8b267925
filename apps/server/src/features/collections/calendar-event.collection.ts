import {
  calendarAccessWindowSchema,
  calendarBlockSchema,
  calendarBookingSchema,
  calendarQuerySchema,
  dateInput,
  idSchema,
  lineText,
} from '@latchkey/shared';
import { z } from 'zod';
import { AppError } from '../../base/http/errors';
import {
  changeCalendar,
  getCalendarEntry,
  getListingCalendar,
  removeCalendarEntry,
} from '../calendars/calendar.service';
import { listingsInScope } from './listing-scope';
import { defineCollection } from './registry';

/** Nights closed to requests: the owner's, or an imported feed's "not available". */
const blockEventSchema = calendarBlockSchema.extend({ kind: z.literal('block'), listingId: z.string() });

/**
 * A listing's calendar entry as its calendar shows it (GET device/{listingId}/calendar): a stay
 * (a booking or a pending request, with the access windows a booking gives its guest and its
 * access list), or a block.
 */
const calendarEventSchema = z.discriminatedUnion('kind', [
  calendarBookingSchema.extend({
    kind: z.literal('stay'),
    listingId: z.string(),
    windows: z.array(calendarAccessWindowSchema),
  }),
  blockEventSchema,
]);

/** POST calendarEvent/new: block nights of a listing (POST device/{listingId}/calendar, `block`). */
const blockInputSchema = z
  .strictObject({
    listingId: idSchema,
    startDate: dateInput(),
    endDate: dateInput(),
    note: lineText().max(200).default(''),
  })
  .refine((block) => block.endDate > block.startDate, {
    message: 'must be after the first night',
    path: ['endDate'],
  });

/**
 * `calendarEvent`: the listings' calendars (features/calendars over features/stays), for admins:
 * stays and blocks from `from` up to `to` (the calendar's own query and default: this month and
 * the next two, on each listing's clock), of one listing with `listingId`, else of every live
 * listing. `get` answers one entry by its id (a block, or a stay its calendar shows); `new` blocks
 * nights and DELETE opens the owner's block again, through the calendar's own service (a block is
 * refused over an approved stay; a feed's block goes with its feed; a stay is declined or cancelled
 * through the stays' own routes: 409). No `ls`: a calendar is computed from stays, blocks and
 * feeds, none of whose tables feed the change log. `idKind` is a block's: the registry-driven
 * specs read and delete the fixtures' block.
 */
export const calendarEventCollection = defineCollection({
  name: 'calendarEvent',
  feature: 'calendars',
  idKind: 'calendarBlockId',
  record: calendarEventSchema,
  get: {
    access: 'admin',
    summary: 'One entry of a listing calendar by its id: a block, or a stay with the access windows it gives',
    handler: async (caller, id) => {
      const entry = await getCalendarEntry(caller.db, caller.portalId, id);
      if (!entry) throw AppError.notFound('Calendar entry');
      if (entry.kind === 'block')
        return { ...entry.block, kind: 'block' as const, listingId: entry.listingId };
      return { ...entry.booking, kind: 'stay' as const, listingId: entry.listingId, windows: entry.windows };
    },
  },
  list: {
    access: 'admin',
    summary:
      "The stays and blocks of a listing's calendar with `listingId` (as GET device/{id}/calendar), else of every listing",
    filter: calendarQuerySchema.safeExtend({ listingId: idSchema.optional() }),
    handler: async (caller, { listingId, ...range }) => {
      const items: z.input<typeof calendarEventSchema>[] = [];
      for (const listing of await listingsInScope(caller, listingId)) {
        const calendar = await getListingCalendar(caller.db, caller.portalId, listing.id, range);
        for (const booking of calendar.bookings)
          items.push({
            ...booking,
            kind: 'stay',
            listingId: listing.id,
            windows: calendar.windows.filter((w) => w.stayId === booking._id),
          });
        for (const block of calendar.blocks) items.push({ ...block, kind: 'block', listingId: listing.id });
      }
      // In the calendar's order, night by night; a sort keeps the listings' order on a night.
      items.sort((a, b) => (a.startDate < b.startDate ? -1 : a.startDate > b.startDate ? 1 : 0));
      return { items, total: items.length };
    },
  },
  create: {
    access: 'admin',
    summary:
      'Block nights of a listing: closed to requests, exported as not available (as POST device/{id}/calendar, `block`)',
    body: blockInputSchema,
    example: { listingId: '{listingId}', startDate: '2031-02-01', endDate: '2031-02-03', note: 'Painting' },
    answer: blockEventSchema,
    handler: async (caller, { listingId, ...nights }) => {
      const change = await changeCalendar(caller.db, caller.change(), listingId, {
        action: 'block',
        ...nights,
      });
      return { ...change.block, kind: 'block' as const, listingId };
    },
  },
  remove: {
    access: 'admin',
    summary:
      "Open the owner's blocked nights again (as POST device/{id}/calendar, `unblock`); a stay is declined or cancelled as a stay (409)",
    handler: (caller, id) => removeCalendarEntry(caller.db, caller.change(), id),
  },
});
