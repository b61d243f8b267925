import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoPortal } from '../src/demo/seed-demo';
import { TestApp } from './test-app';

/** The rental part of the demo data: one listing per demo portal, with pictures and guests. */
let t: TestApp;
beforeAll(async () => {
  t = await TestApp.start({ STAY_ACCESS_CHECK_MS: '0', PAYMENTS_SWEEP_MS: '0' });
  await seedDemoPortal(
    t.app.db,
    t.app.log,
    { publicUrl: 'http://localhost:3000', throttle: t.app.mailThrottle },
    { ...t.app.rental, ical: t.app.ical },
  );
}, 120_000);
afterAll(() => t.close());

describe('demo rentals', () => {
  it('gives every demo portal a published listing with images, a pending request and an upcoming stay', async () => {
    const listings = await t.app.db.selectFrom('listings').selectAll().execute();
    const portals = await t.app.db.selectFrom('portals').select(['id', 'name']).execute();
    const named = (id: string) => portals.find((p) => p.id === id)?.name;
    expect(listings.map((l) => named(l.portal_id)).sort()).toEqual([
      'Demo Apartments',
      'Harbor Offices',
      'Riverside Studios',
    ]);
    for (const listing of listings) {
      expect(Number(listing.published)).toBe(1);
      const images = await t.app.db
        .selectFrom('user_images')
        .selectAll()
        .where('owner_id', '=', listing.id)
        .execute();
      expect(images.length).toBeGreaterThan(0);
      const stays = await t.app.db
        .selectFrom('stays')
        .selectAll()
        .where('listing_id', '=', listing.id)
        .execute();
      // Requested on the public page and not over (the main listing also has a reviewed past stay).
      const utcToday = new Date().toISOString().slice(0, 10);
      const requested = stays.filter((s) => s.source === 'request' && s.end_date > utcToday);
      expect(requested.map((s) => s.state).sort()).toEqual(['approved', 'requested']);
      const approved = requested.find((s) => s.state === 'approved')!;
      expect(approved.access_state).toBe('waiting');
      expect(approved.start_date > utcToday).toBe(true);
    }
    const berlin = listings.find((l) => named(l.portal_id) === 'Demo Apartments')!;
    const page = await t.request({ method: 'GET', url: `/api3/listing/${berlin.id}/public` });
    expect(page.json()).toMatchObject({ title: 'Bright two rooms by the park', images: expect.any(Array) });
    expect(page.json().images).toHaveLength(3);
    const image = await t.request({ method: 'GET', url: page.json().images[0].url });
    expect(image.headers['content-type']).toBe('image/webp');
  });

  it('shows the calendar part on the main demo listing: an imported arrival today, a review with an answer, blocked nights', async () => {
    const portal = await t.app.db
      .selectFrom('portals')
      .select('id')
      .where('name', '=', 'Demo Apartments')
      .executeTakeFirstOrThrow();
    const listing = await t.app.db
      .selectFrom('listings')
      .selectAll()
      .where('portal_id', '=', portal.id)
      .executeTakeFirstOrThrow();
    const stays = await t.app.db
      .selectFrom('stays')
      .selectAll()
      .where('listing_id', '=', listing.id)
      .execute();
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(new Date());
    const imported = stays.find((s) => s.source === 'ical')!;
    expect(imported).toMatchObject({
      state: 'approved',
      start_date: today,
      guest_email: '',
      access_state: 'waiting',
    });
    const feeds = await t.app.db
      .selectFrom('listing_ical_feeds')
      .selectAll()
      .where('listing_id', '=', listing.id)
      .execute();
    expect(feeds).toEqual([expect.objectContaining({ name: 'Airbnb', event_count: 1, last_error: null })]);
    // Not read offline: its next periodic read is far off.
    expect(new Date(String(feeds[0]!.next_fetch_at)).getTime()).toBeGreaterThan(
      Date.now() + 300 * 86_400_000,
    );
    const page = (await t.request({ method: 'GET', url: `/api3/listing/${listing.id}/public` })).json();
    expect(page.reviews).toMatchObject({ count: 1, average: 5 });
    expect(page.reviews.items[0]).toMatchObject({
      guestName: 'Sofia',
      answer: expect.stringContaining('Thank you'),
    });
    const blocks = await t.app.db
      .selectFrom('listing_blocks')
      .selectAll()
      .where('listing_id', '=', listing.id)
      .execute();
    expect(blocks).toEqual([expect.objectContaining({ source: 'owner', note: 'Painting the bedroom' })]);
  });
});
