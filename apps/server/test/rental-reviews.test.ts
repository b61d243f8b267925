import {
  zonedInstant,
  type MyReviews,
  type PublicListing,
  type ReviewInvitation,
  type ReviewsPage,
  type Stay,
} from '@latchkey/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addListing,
  addLock,
  dayIn,
  mailTo,
  rentalPortal,
  requestStay,
  type RentalPortal,
} from './rental-helpers';
import { TestApp } from './test-app';

const LISBON = 'Europe/Lisbon';

let t: TestApp;
let owner: RentalPortal;
let stranger: RentalPortal;
let basicToken: string;
let listingId: string;

beforeAll(async () => {
  t = await TestApp.start({
    STAY_ACCESS_CHECK_MS: '0',
    ICAL_SYNC_MINUTES: '0',
    REVIEW_MAIL_CHECK_MS: '0',
    MAIL_LIMIT_PER_RECIPIENT: '1',
  });
  owner = await rentalPortal(t);
  stranger = await rentalPortal(t);
  const basic = await t.signUp();
  await t.addMember(owner.portalId, basic.userId, 'user');
  basicToken = basic.token;
  const lock = (await addLock(t, owner)).id;
  listingId = await addListing(t, owner, [lock], { title: 'Cliff cabin', checkOutTime: '11:00' });
});
afterAll(() => t.close());

/** An approved stay; `endedDaysAgo` moves its dates into the past (the past cannot be requested). */
let nextFrom = 100;
async function stay(name: string, email: string, endedDaysAgo?: number): Promise<Stay> {
  // Each stay on nights of its own (random dates collided now and then: 400 "taken" answers).
  const from = (nextFrom += 3);
  const request = await requestStay(t, listingId, {
    name,
    email,
    startDate: dayIn(LISBON, from),
    endDate: dayIn(LISBON, from + 2),
  });
  expect(request.statusCode, request.body).toBe(201);
  const approved = await t.request({
    method: 'POST',
    url: `/api3/device/${listingId}/request/${request.json()._id}`,
    token: owner.token,
    payload: { action: 'approve' },
  });
  expect(approved.statusCode, approved.body).toBe(200);
  if (endedDaysAgo !== undefined) {
    await t.app.db
      .updateTable('stays')
      .set({ start_date: dayIn(LISBON, -endedDaysAgo - 2), end_date: dayIn(LISBON, -endedDaysAgo) })
      .where('id', '=', request.json()._id)
      .execute();
  }
  return approved.json();
}

const tokenOf = (stayId: string) => t.app.rental.deps.tokens.sign('review', stayId, 1);
const invitation = (token: string) => t.request({ method: 'GET', url: `/api3/review/${token}` });
const submit = (token: string, payload: object) =>
  t.request({
    method: 'POST',
    url: `/api3/review/${token}`,
    payload,
    remoteAddress: `10.4.${Math.floor(Math.random() * 255)}.${1 + Math.floor(Math.random() * 250)}`,
  });
const publicPage = async () =>
  (await t.request({ method: 'GET', url: `/api3/listing/${listingId}/public` })).json() as PublicListing;

describe('a guest reviews their stay', () => {
  let ended: Stay;

  beforeAll(async () => {
    ended = await stay('Rita Reviewer', 'rita@example.com', 2);
  });

  it('is not open before check-out (409)', async () => {
    const upcoming = await stay('Felix Future', 'felix@example.com');
    const view: ReviewInvitation = (await invitation(tokenOf(upcoming._id))).json();
    expect(view).toMatchObject({ open: false, reason: 'Reviews open once the stay is over', review: null });
    const early = await submit(tokenOf(upcoming._id), { rating: 5 });
    expect(early.statusCode).toBe(409);
  });

  it('takes one review after check-out, shown on the public page under a first name and a month', async () => {
    const token = tokenOf(ended._id);
    const view: ReviewInvitation = (await invitation(token)).json();
    expect(view).toMatchObject({
      open: true,
      listingTitle: 'Cliff cabin',
      guestName: 'Rita',
      closesOn: dayIn(LISBON, 28),
      listingPath: `/s/r/${listingId}`,
    });
    for (const payload of [
      {},
      { rating: 0 },
      { rating: 6 },
      { rating: 4.5 },
      { rating: 3, text: 'x'.repeat(2001) },
      { rating: '5' },
    ]) {
      expect((await submit(token, payload)).statusCode, JSON.stringify(payload)).toBe(400);
    }
    const done = await submit(token, { rating: 4, text: 'Wonderful view, the stove takes a while.' });
    expect(done.statusCode, done.body).toBe(201);
    expect(done.json()).toMatchObject({
      open: false,
      reason: 'You reviewed this stay',
      review: { rating: 4, state: 'published' },
    });
    expect((await submit(token, { rating: 5 })).statusCode).toBe(409);

    const page = await publicPage();
    expect(page.reviews).toMatchObject({ count: 1, average: 4 });
    expect(page.reviews.items[0]).toMatchObject({
      guestName: 'Rita',
      rating: 4,
      text: 'Wonderful view, the stove takes a while.',
      answer: null,
      stayMonth: dayIn(LISBON, -4).slice(0, 7),
    });
    const text = JSON.stringify(page);
    expect(text).not.toContain('Reviewer');
    expect(text).not.toContain('rita@example.com');
    const log = await t.app.db
      .selectFrom('audit_log')
      .select(['action', 'ip'])
      .where('action', '=', 'review.create')
      .execute();
    expect(log).toHaveLength(1);
  });

  it('refuses forged links, other links and a cancelled stay', async () => {
    expect((await invitation(`${tokenOf(ended._id)}x`)).statusCode).toBe(404);
    expect((await invitation(t.app.rental.deps.tokens.sign('stay', ended._id, 1))).statusCode).toBe(404);
    expect((await invitation('V1.nothing.1.AAAAAAAAAAAAAAAAAAAAAA')).statusCode).toBe(404);
    expect((await invitation('not a token')).statusCode).toBe(400);
    const cancelled = await stay('Carl Cancelled', 'carl@example.com');
    await t.request({
      method: 'POST',
      url: `/api3/device/${listingId}/request/${cancelled._id}`,
      token: owner.token,
      payload: { action: 'cancel' },
    });
    // Cancelling revoked the stay's links (issue 16): its review link opens nothing any more.
    expect((await invitation(tokenOf(cancelled._id))).statusCode).toBe(404);
    expect((await submit(tokenOf(cancelled._id), { rating: 1 })).statusCode).toBe(404);
    const current = t.app.rental.deps.tokens.sign('review', cancelled._id, 2);
    const view: ReviewInvitation = (await invitation(current)).json();
    expect(view).toMatchObject({ open: false, reason: 'This stay was cancelled' });
    expect((await submit(current, { rating: 1 })).statusCode).toBe(409);
  });

  it('closes 30 days after check-out', async () => {
    const old = await stay('Olga Old', 'olga@example.com', 31);
    expect((await invitation(tokenOf(old._id))).json()).toMatchObject({
      open: false,
      reason: 'Reviews close 30 days after check-out',
    });
  });
});

describe('the owner answers and hides reviews (GET listing/{id}/review, POST listing/{id}/review/{reviewId})', () => {
  let reviewId: string;

  beforeAll(async () => {
    const rough = await stay('Troy Troll', 'troy@example.com', 1);
    expect((await submit(tokenOf(rough._id), { rating: 1, text: 'Abusive words here' })).statusCode).toBe(
      201,
    );
    reviewId = (
      await t.app.db
        .selectFrom('reviews')
        .select('id')
        .where('stay_id', '=', rough._id)
        .executeTakeFirstOrThrow()
    ).id;
  });

  const list = (query = '', token = owner.token, portal?: string) =>
    t.request({ method: 'GET', url: `/api3/listing/${listingId}/review${query}`, token, portal });
  const moderate = (payload: object, token = owner.token, portal?: string) =>
    t.request({
      method: 'POST',
      url: `/api3/listing/${listingId}/review/${reviewId}`,
      token,
      payload,
      portal,
    });

  it('lists reviews, paged, sorted and filtered', async () => {
    const all: ReviewsPage = (await list('?sortBy=rating')).json();
    expect(all.total).toBe(2);
    expect(all.items.map((r) => r.rating)).toEqual([1, 4]);
    expect(all.items[0]).toMatchObject({
      guestName: 'Troy',
      state: 'published',
      stayEndDate: dayIn(LISBON, -1),
    });
    const ones: ReviewsPage = (await list('?filterBy=rating&filterValue=1')).json();
    expect(ones.items.map((r) => r._id)).toEqual([reviewId]);
    const searched: ReviewsPage = (await list('?search=stove')).json();
    expect(searched.items.map((r) => r.guestName)).toEqual(['Rita']);
    for (const query of [
      '?filterBy=rating&filterValue=9',
      '?filterBy=state&filterValue=deleted',
      '?sortBy=text',
    ]) {
      expect((await list(query)).statusCode, query).toBe(400);
    }
  });

  it('answers a review, hides an abusive one and shows it again, each in the change log', async () => {
    const answered = await moderate({ action: 'answer', answer: 'Sorry to hear it.' });
    expect(answered.statusCode, answered.body).toBe(200);
    expect(answered.json()).toMatchObject({ answer: 'Sorry to hear it.' });
    expect((await publicPage()).reviews.items.find((r) => r.guestName === 'Troy')!.answer).toBe(
      'Sorry to hear it.',
    );

    const hidden = await moderate({ action: 'hide', reason: 'Insults' });
    expect(hidden.json()).toMatchObject({ state: 'hidden', hiddenReason: 'Insults' });
    const page = await publicPage();
    expect(page.reviews).toMatchObject({ count: 1, average: 4 });
    expect(JSON.stringify(page)).not.toContain('Abusive');
    const hiddenOnes: ReviewsPage = (await list('?filterBy=state&filterValue=hidden')).json();
    expect(hiddenOnes.items.map((r) => r._id)).toEqual([reviewId]);

    expect((await moderate({ action: 'publish' })).json()).toMatchObject({
      state: 'published',
      hiddenReason: null,
    });
    expect((await publicPage()).reviews).toMatchObject({ count: 2, average: 2.5 });
    expect((await moderate({ action: 'answer', answer: '' })).json()).toMatchObject({
      answer: null,
      answeredAt: null,
    });

    const log = await t.app.db
      .selectFrom('audit_log')
      .select('action')
      .where('portal_id', '=', owner.portalId)
      .where('entity_id', '=', reviewId)
      .orderBy('created_at')
      .execute();
    expect(log.map((l) => l.action)).toEqual([
      'review.create',
      'review.answer',
      'review.hide',
      'review.publish',
      'review.answer',
    ]);
  });

  it('answers 400, 401, 403 and 404 as it should', async () => {
    expect((await moderate({ action: 'hide', reason: '' })).statusCode).toBe(400);
    expect((await moderate({ action: 'delete' })).statusCode).toBe(400);
    expect((await t.request({ method: 'GET', url: `/api3/listing/${listingId}/review` })).statusCode).toBe(
      401,
    );
    expect((await list('', basicToken, owner.portalId)).statusCode).toBe(403);
    expect((await moderate({ action: 'publish' }, basicToken, owner.portalId)).statusCode).toBe(403);
    expect((await list('', stranger.token)).statusCode).toBe(404);
    const foreign = await moderate({ action: 'hide', reason: 'Mine now' }, stranger.token);
    expect(foreign.statusCode).toBe(404);
    const unknown = await t.request({
      method: 'POST',
      url: `/api3/listing/${listingId}/review/00000000-0000-4000-8000-000000000000`,
      token: owner.token,
      payload: { action: 'publish' },
    });
    expect(unknown.statusCode).toBe(404);
  });
});

describe('GET reviews/mine (the /app/review screen)', () => {
  it("lists a person's stays to review and reviews they wrote, and an admin's listings' reviews", async () => {
    const guest = await t.signUp();
    const open = await stay('Mona Mine', 'mona1@example.com', 1);
    const reviewed = await stay('Mona Mine', 'mona2@example.com', 2);
    const ahead = await stay('Mona Mine', 'mona3@example.com');
    const someoneElses = await stay('Otto Other', 'otto@example.com', 1);
    await t.app.db
      .updateTable('stays')
      .set({ guest_user_id: guest.userId })
      .where('id', 'in', [open._id, reviewed._id, ahead._id])
      .execute();
    const written = await submit(tokenOf(reviewed._id), { rating: 5, text: 'Quiet and warm.' });
    expect(written.statusCode, written.body).toBe(201);
    const mine = (token: string, portal?: string) =>
      t.request({ method: 'GET', url: '/api3/reviews/mine', token, ...(portal ? { portal } : {}) });

    const asGuest = await mine(guest.token);
    expect(asGuest.statusCode).toBe(200);
    const body = asGuest.json() as MyReviews;
    // Only their own ended, unreviewed stay: not the one ahead, not the reviewed one, not another guest's.
    expect(body.toReview.map((s) => s.stayId)).toEqual([open._id]);
    expect(body.toReview[0]).toMatchObject({ listingTitle: 'Cliff cabin' });
    expect(body.toReview[0]!.reviewPath).toMatch(/^\/review\?t=/);
    expect(body.written).toHaveLength(1);
    expect(body.written[0]).toMatchObject({
      listingTitle: 'Cliff cabin',
      rating: 5,
      text: 'Quiet and warm.',
    });
    // Their own portal (they own it: an admin there) has no listings.
    expect(body.hosting).toMatchObject({ total: 0, items: [] });
    expect(JSON.stringify(body)).not.toContain(someoneElses._id);

    // The host's admin sees the review of their listing; a basic member of that portal and another
    // portal's admin do not.
    const host = (await mine(owner.token)).json() as MyReviews;
    expect(host.hosting!.items.map((r) => r.stayId)).toContain(reviewed._id);
    expect(host.hosting!.items.find((r) => r.stayId === reviewed._id)).toMatchObject({
      listingTitle: 'Cliff cabin',
      listingId,
    });
    expect(((await mine(basicToken, owner.portalId)).json() as MyReviews).hosting).toBeNull();
    const foreign = (await mine(stranger.token)).json() as MyReviews;
    expect(foreign.hosting!.items.map((r) => r.stayId)).not.toContain(reviewed._id);
    expect((await t.request({ method: 'GET', url: '/api3/reviews/mine' })).statusCode).toBe(401);
  });
});

describe('the mail after check-out', () => {
  it('invites each guest once after check-out, through the throttle; skips guests without an address', async () => {
    const reviews = t.app.reviewMailer;
    // Everything before: invited or skipped now, so this test counts its own.
    await reviews.sweep();
    // Yesterday's check-out: the invitation reads as open at any hour this test runs (a check-out
    // today at 11:00 was still ahead when the suite ran before 11:00 in Lisbon).
    await stay('Gina Guest', 'gina@example.com', 1);
    const checkOut = zonedInstant(dayIn(LISBON, -1), '11:00', LISBON).getTime();
    expect(await reviews.sweep(new Date(checkOut - 60_000))).toBe(0);
    expect(await reviews.sweep(new Date(checkOut + 60_000))).toBe(1);
    const mails = await mailTo(t, 'gina@example.com');
    const invite = mails.find((m) => m.template === 'stay_review')!;
    expect(invite.subject).toBe('How was your stay at Cliff cabin?');
    const link = /\/review\?t=(V1\.[\w.-]+)/.exec(invite.text_body)![1]!;
    expect((await invitation(decodeURIComponent(link))).json()).toMatchObject({
      open: true,
      guestName: 'Gina',
    });
    expect(await reviews.sweep(new Date(checkOut + 120_000))).toBe(0);

    // Two stays of one guest ended: the recipient limit (1 an hour here) lets one mail through now.
    await stay('Hans Twice', 'hans@example.com', 1);
    await stay('Hans Twice', 'hans@example.com', 1);
    expect(await reviews.sweep(new Date(checkOut + 180_000))).toBe(1);
    const waiting = await t.app.db
      .selectFrom('stays')
      .select('id')
      .where('guest_email', '=', 'hans@example.com')
      .where('review_mailed_at', 'is', null)
      .execute();
    expect(waiting).toHaveLength(1);

    // An imported reservation has no address: marked, never mailed.
    const noAddress = await stay('Iris Imported', 'iris@example.com', 1);
    await t.app.db
      .updateTable('stays')
      .set({ guest_email: '', source: 'ical' })
      .where('id', '=', noAddress._id)
      .execute();
    await reviews.sweep(new Date(checkOut + 240_000));
    const row = await t.app.db
      .selectFrom('stays')
      .select('review_mailed_at')
      .where('id', '=', noAddress._id)
      .executeTakeFirstOrThrow();
    expect(row.review_mailed_at).not.toBeNull();
  });
});
