import { addDaysToDate, listingInputSchema, localWallTime, type ListingInput } from '@latchkey/shared';
import type { Database } from '../db/database';
import { nowIso } from '../db/mappers';
import { changeAccess } from '../base/access-changes/touched-locks';
import { findFeed, updateFeed } from '../features/calendars/calendar.repository';
import { changeCalendar } from '../features/calendars/calendar.service';
import type { IcalDeps } from '../features/calendars/ical-deps';
import { createFeed } from '../features/calendars/ical-feeds.service';
import { applyFeedText } from '../features/calendars/ical-sync.service';
import { findListing } from '../features/listings/listings.repository';
import { moderateReview, submitReview } from '../features/reviews/reviews.service';
import type { UserRow } from '../db/schema';
import type { ChangeContext } from '../base/http/access';
import type { MailThrottle } from '../base/mail/mail-throttle';
import { createListing } from '../features/listings/listings.service';
import { createCategory } from '../features/listings/categories.service';
import { createAccessListEntry } from '../features/listings/access-list.service';
import { addImage } from '../features/listings/listing-images.service';
import type { ImageStore } from '../features/listings/image-store';
import { putDeviceLanding } from '../features/sharelock/sharelock.service';
import { loadStayFacts, reconcileStayAccess } from '../features/stays/stay-access';
import { findStayById, updateStay } from '../features/stays/stays.repository';
import type { StayDeps } from '../features/rental/rental-context';
import { actOnStay } from '../features/stays/stays.service';
import { requestStay } from '../features/stays/stay-requests.service';

/** What the demo's rentals need from the running app (features/stays/stays.plugin.ts). */
export interface DemoRentalParts {
  images: ImageStore;
  deps: StayDeps;
  /** iCal (R2): the demo "imports" a bundled calendar, since no platform is reachable offline. */
  ical?: { deps: IcalDeps };
  /** Where support requests' images go (features/support): the demo's requests carry a photo. */
  supportImages?: ImageStore;
}

type Room = 'living' | 'bedroom' | 'kitchen' | 'office' | 'door';

/** A simple drawn picture of a room (the demo ships no photos): an SVG rendered to PNG. */
async function roomPicture(room: Room, hue: number): Promise<Buffer> {
  const wall = `hsl(${hue} 35% 88%)`;
  const floor = `hsl(${hue} 25% 62%)`;
  const accent = `hsl(${(hue + 180) % 360} 45% 48%)`;
  const window =
    '<rect x="520" y="90" width="190" height="170" rx="6" fill="#cfe8ff" stroke="#fff" stroke-width="10"/><line x1="615" y1="90" x2="615" y2="260" stroke="#fff" stroke-width="8"/>';
  const scenes: Record<Room, string> = {
    living: `${window}<rect x="90" y="330" width="330" height="110" rx="24" fill="${accent}"/><rect x="110" y="280" width="290" height="70" rx="20" fill="${accent}" opacity="0.8"/><rect x="470" y="380" width="150" height="60" rx="8" fill="#8b5e3c"/><circle cx="200" cy="150" r="46" fill="#f6d365"/>`,
    bedroom: `${window}<rect x="80" y="300" width="380" height="150" rx="16" fill="#ffffff"/><rect x="80" y="250" width="40" height="200" rx="8" fill="#8b5e3c"/><rect x="110" y="290" width="130" height="50" rx="18" fill="${accent}" opacity="0.7"/><rect x="80" y="360" width="380" height="90" rx="12" fill="${accent}"/>`,
    kitchen: `<rect x="60" y="260" width="680" height="180" fill="#f3f3f3"/><rect x="60" y="250" width="680" height="24" fill="#8b5e3c"/><rect x="90" y="300" width="140" height="120" rx="6" fill="${accent}" opacity="0.8"/><rect x="250" y="300" width="140" height="120" rx="6" fill="${accent}" opacity="0.8"/><circle cx="520" cy="230" r="22" fill="#555"/><rect x="120" y="90" width="260" height="110" rx="6" fill="#fff" opacity="0.8"/>`,
    office: `${window}<rect x="120" y="300" width="420" height="22" rx="4" fill="#8b5e3c"/><rect x="140" y="322" width="16" height="120" fill="#8b5e3c"/><rect x="504" y="322" width="16" height="120" fill="#8b5e3c"/><rect x="230" y="210" width="180" height="90" rx="6" fill="#333"/><rect x="600" y="330" width="90" height="110" rx="20" fill="${accent}"/>`,
    door: `<rect x="300" y="70" width="200" height="380" rx="6" fill="${accent}"/><circle cx="470" cy="270" r="12" fill="#f6d365"/><rect x="520" y="220" width="40" height="70" rx="6" fill="#333"/><rect x="528" y="232" width="24" height="12" rx="2" fill="#7fd"/>`,
  };
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="533" viewBox="0 0 800 533"><rect width="800" height="533" fill="${wall}"/><rect y="440" width="800" height="93" fill="${floor}"/>${scenes[room]}</svg>`;
  // Loaded only when the demo is created: sharp costs about 0.15 s of CPU at every start.
  const { default: sharp } = await import('sharp');
  return sharp(Buffer.from(svg)).png().toBuffer();
}

export interface DemoListing {
  context: ChangeContext;
  owner: UserRow;
  throttle: MailThrottle;
  title: string;
  category: string;
  listing: Partial<ListingInput> & { deviceIds: string[] };
  timeZone: string;
  pictures: { room: Room; alt: string }[];
  hue: number;
  arrival: {
    deviceId: string;
    name: string;
    text: string;
    wifiName?: string;
    wifiPassword?: string;
    parking?: string;
  }[];
  cleaner?: string;
  /** Guests: a pending request and an approved upcoming stay. */
  pending: { name: string; email: string; inDays: number; nights: number; note: string };
  upcoming: { name: string; email: string; inDays: number; nights: number };
  /**
   * R2: a reservation imported from a platform's calendar arriving today (its guest's code shown to
   * the owner), a past stay with its guest's review and the owner's answer, and blocked nights.
   */
  calendar?: {
    feed: { name: string; url: string; guest: string; nights: number };
    reviewed: { name: string; email: string; rating: number; text: string; answer: string };
    block: { inDays: number; nights: number; note: string };
  };
}

/**
 * One demo listing made as an owner makes it (the change log shows it): pictures, arrival
 * instructions per lock, an access list entry, a request waiting for an answer and an approved
 * upcoming stay, whose code the demo's simulated locks confirm.
 */
export async function seedDemoListing(
  db: Database,
  parts: DemoRentalParts,
  demo: DemoListing,
): Promise<string> {
  const { context } = demo;
  const category = await createCategory(db, context, demo.category);
  const listing = await createListing(
    db,
    context,
    listingInputSchema.parse({
      title: demo.title,
      published: true,
      categoryId: category._id,
      ...demo.listing,
    }),
  );
  for (const picture of demo.pictures) {
    await addImage(
      db,
      parts.images,
      context,
      { type: 'listing', id: listing._id, label: listing.title },
      await roomPicture(picture.room, demo.hue),
      picture.alt,
    );
  }
  for (const lock of demo.arrival) {
    await putDeviceLanding(db, context, lock.deviceId, {
      text: lock.text,
      wifiName: lock.wifiName ?? '',
      wifiPassword: lock.wifiPassword ?? '',
      parking: lock.parking ?? '',
    });
    await addImage(
      db,
      parts.images,
      context,
      { type: 'landing', id: lock.deviceId, label: lock.name, deviceId: lock.deviceId },
      await roomPicture('door', demo.hue),
      `The door of ${lock.name}, with the keypad on the right`,
    );
  }
  if (demo.cleaner) {
    await createAccessListEntry(db, context, listing._id, {
      name: demo.cleaner,
      email: '',
      phone: '',
      anchor: 'check_out',
      startOffset: 0,
      endOffset: 180,
    });
  }
  const today = localWallTime(new Date(), demo.timeZone).date;
  const ask = (guest: { name: string; email: string; inDays: number; nights: number; note?: string }) =>
    requestStay(
      db,
      parts.deps,
      listing._id,
      {
        name: guest.name,
        email: guest.email,
        phone: '',
        note: guest.note ?? '',
        startDate: addDaysToDate(today, guest.inDays),
        endDate: addDaysToDate(today, guest.inDays + guest.nights),
      },
      '127.0.0.1',
    );
  await ask(demo.pending);
  const upcoming = await ask(demo.upcoming);
  await actOnStay(
    db,
    parts.deps,
    context,
    { user: demo.owner, throttle: demo.throttle },
    listing._id,
    upcoming._id,
    { action: 'approve' },
  );
  if (demo.calendar && parts.ical)
    await seedDemoCalendar(db, parts, parts.ical.deps, demo, listing._id, today);
  return listing._id;
}

/** A platform's calendar as it would read: one reservation, all-day dates, Airbnb's wording. */
function bundledFeed(startDate: string, endDate: string): string {
  const day = (date: string) => date.replace(/-/g, '');
  return [
    'BEGIN:VCALENDAR',
    'PRODID:-//Airbnb Inc//Hosting Calendar 0.8.8//EN',
    'CALSCALE:GREGORIAN',
    'VERSION:2.0',
    'BEGIN:VEVENT',
    `DTEND;VALUE=DATE:${day(endDate)}`,
    `DTSTART;VALUE=DATE:${day(startDate)}`,
    'UID:demo-reservation-1@airbnb.com',
    'DESCRIPTION:Reservation URL: https://www.airbnb.com/hosting/reservations/details/HMDEMO1\\nPhone Number (Last 4 Digits): 0420',
    'SUMMARY:Reserved',
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ].join('\r\n');
}

/**
 * The R2 part of a demo listing. No platform is reachable offline, so the imported calendar is
 * applied from a bundled text exactly as a read of its address would be, and its next periodic read
 * is put a year off ("Sync now" shows what a failing read looks like). The review is written
 * through the guest's review link, of a stay moved into the past.
 */
async function seedDemoCalendar(
  db: Database,
  parts: DemoRentalParts,
  icalDeps: IcalDeps,
  demo: DemoListing,
  listingId: string,
  today: string,
): Promise<void> {
  const { context } = demo;
  const plan = demo.calendar!;
  const feed = await createFeed(db, icalDeps, context, listingId, {
    name: plan.feed.name,
    url: plan.feed.url,
    mode: 'auto',
  });
  const row = (await findFeed(db, context.portalId, listingId, feed._id))!;
  const listing = (await findListing(db, context.portalId, listingId))!;
  const now = new Date();
  await applyFeedText(
    db,
    icalDeps,
    row,
    listing,
    bundledFeed(today, addDaysToDate(today, plan.feed.nights)),
    { etag: null, lastModified: null },
    {
      actor: { userId: context.actorUserId, ip: context.ip },
      now,
    },
  );
  await updateFeed(db, context.portalId, feed._id, {
    next_fetch_at: new Date(now.getTime() + 365 * 86_400_000).toISOString(),
  });

  // A stay that is over: requested and approved ahead, then moved into the past, its access revoked.
  const past = await requestStay(
    db,
    parts.deps,
    listingId,
    {
      name: plan.reviewed.name,
      email: plan.reviewed.email,
      phone: '',
      note: '',
      startDate: addDaysToDate(today, 300),
      endDate: addDaysToDate(today, 303),
    },
    '127.0.0.1',
  );
  await actOnStay(
    db,
    parts.deps,
    context,
    { user: demo.owner, throttle: demo.throttle },
    listingId,
    past._id,
    {
      action: 'approve',
    },
  );
  await changeAccess(db, async (trx, touch) => {
    await updateStay(trx, context.portalId, past._id, {
      start_date: addDaysToDate(today, -6),
      end_date: addDaysToDate(today, -3),
      review_mailed_at: nowIso(),
    });
    const stay = (await findStayById(trx, context.portalId, past._id))!;
    await reconcileStayAccess(trx, touch, await loadStayFacts(trx, stay), now);
    // Its request came long ago, for the dates it had then: not news in the host's inbox today.
    await trx
      .deleteFrom('notifications')
      .where('portal_id', '=', context.portalId)
      .where('once_key', '=', `stay_request:${past._id}`)
      .execute();
  });
  const stay = (await findStayById(db, context.portalId, past._id))!;
  const token = parts.deps.tokens.sign('review', stay.id, stay.guest_token_version);
  await submitReview(
    db,
    parts.deps,
    token,
    { rating: plan.reviewed.rating, text: plan.reviewed.text },
    '127.0.0.1',
  );
  const review = await db
    .selectFrom('reviews')
    .select('id')
    .where('portal_id', '=', context.portalId)
    .where('stay_id', '=', stay.id)
    .executeTakeFirstOrThrow();
  await moderateReview(db, context, listingId, review.id, { action: 'answer', answer: plan.reviewed.answer });

  await changeCalendar(db, context, listingId, {
    action: 'block',
    startDate: addDaysToDate(today, plan.block.inDays),
    endDate: addDaysToDate(today, plan.block.inDays + plan.block.nights),
    note: plan.block.note,
  });
}
