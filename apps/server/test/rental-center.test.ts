import { SimulatedLock } from '@latchkey/locksim';
import type { RentalCenter, RentalCenterStaysPage, Stay } from '@latchkey/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addListing,
  addLock,
  dayIn,
  keepStayInNewAccount,
  rentalPortal,
  requestStay,
  type RentalPortal,
} from './rental-helpers';
import { TestApp } from './test-app';

const LISBON = 'Europe/Lisbon';

let t: TestApp;
let owner: RentalPortal;
let stranger: RentalPortal;
let flatLock: { id: string; secret: string };
let flat: string;
let studio: string;
let cohost: { token: string; userId: string };
let plainMember: { token: string };
let arriving: Stay;
let leaving: Stay;
let pendingId: string;
let guestEmail: string;

beforeAll(async () => {
  t = await TestApp.start({ STAY_ACCESS_CHECK_MS: '0', ICAL_SYNC_MINUTES: '0' });
  owner = await rentalPortal(t);
  stranger = await rentalPortal(t);
  flatLock = await addLock(t, owner, { name: 'Flat door' });
  const studioLock = await addLock(t, owner, { name: 'Studio door' });
  flat = await addListing(t, owner, [flatLock.id], { title: 'Harbour flat' });
  studio = await addListing(t, owner, [studioLock.id], { title: 'Garden studio' });
  // A member who looks after the studio only, and one who looks after nothing.
  const co = await t.signUp();
  await t.addMember(owner.portalId, co.userId, 'user');
  cohost = { token: co.token, userId: co.userId };
  const added = await t.request({
    method: 'PUT',
    url: `/api3/listing/${studio}/user/${co.userId}`,
    token: owner.token,
  });
  expect(added.statusCode, added.body).toBeLessThan(300);
  const plain = await t.signUp();
  await t.addMember(owner.portalId, plain.userId, 'user');
  plainMember = { token: plain.token };

  guestEmail = `guest-${Date.now()}@example.com`;
  arriving = await approved(flat, 0, 3, 'Ana Arriving', guestEmail);
  // A stay that leaves today: approved, then its dates moved back in the database (the past
  // cannot be requested).
  leaving = await approved(studio, 1, 2, 'Leo Leaving');
  await t.app.db
    .updateTable('stays')
    .set({ start_date: dayIn(LISBON, -2), end_date: dayIn(LISBON, 0) })
    .where('id', '=', leaving._id)
    .execute();
  await approved(studio, 10, 12, 'Uma Upcoming');
  const pending = await requestStay(t, flat, {
    name: 'Pia Pending',
    startDate: dayIn(LISBON, 20),
    endDate: dayIn(LISBON, 22),
  });
  pendingId = pending.json()._id;
});
afterAll(() => t.close());

async function approved(listingId: string, from: number, to: number, name: string, email?: string) {
  const request = await requestStay(t, listingId, {
    name,
    ...(email && { email }),
    startDate: dayIn(LISBON, from),
    endDate: dayIn(LISBON, to),
  });
  if (request.statusCode !== 201) throw new Error(request.body);
  const response = await t.request({
    method: 'POST',
    url: `/api3/device/${listingId}/request/${request.json()._id}`,
    token: owner.token,
    payload: { action: 'approve' },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as Stay;
}

const center = async (token: string, portal?: string) => {
  const response = await t.request({ method: 'GET', url: '/api3/rentalcenter', token, portal });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as RentalCenter;
};
const stays = async (query: string, token = owner.token, portal?: string) => {
  const response = await t.request({ method: 'GET', url: `/api3/rentalcenter/stays${query}`, token, portal });
  return response;
};

describe('the rental center (GET rentalcenter)', () => {
  it("shows an admin today's arrivals and departures, pending requests and every listing", async () => {
    const view = await center(owner.token);
    expect(view.hosting).toMatchObject({ portalId: owner.portalId, scope: 'admin' });
    expect(view.arrivalsToday.map((s) => s.guestName)).toEqual(['Ana Arriving']);
    expect(view.departuresToday.map((s) => s.guestName)).toEqual(['Leo Leaving']);
    expect(view.pendingRequests).toMatchObject({
      total: 1,
      items: [expect.objectContaining({ _id: pendingId })],
    });
    expect(view.listings.map((l) => l.title)).toEqual(['Garden studio', 'Harbour flat']);
    expect(view.listings.find((l) => l.title === 'Garden studio')).toMatchObject({
      today: dayIn(LISBON, 0),
      upcomingStays: 2,
      nextArrival: dayIn(LISBON, 10),
      pendingRequests: 0,
      feeds: [],
    });
    const ana = view.arrivalsToday[0]!;
    expect(ana).toMatchObject({
      listingTitle: 'Harbour flat',
      checkInTime: '15:00',
      timeZone: LISBON,
      overlaps: false,
    });
    expect(ana.locks).toEqual([expect.objectContaining({ deviceId: flatLock.id, name: 'Flat door' })]);
    expect(['pending', 'sent']).toContain(ana.locks[0]!.state);
    // No codes anywhere in it.
    expect(JSON.stringify(view)).not.toContain(arriving.access[0]!.code);
  });

  it("shows each lock's state as the lock reports it: confirmed once the lock has the code", async () => {
    const simulated = new SimulatedLock({
      url: t.app.deviceLink.transport.url,
      deviceId: flatLock.id,
      secret: flatLock.secret,
      heartbeatSeconds: 0,
    });
    const applied = new Promise((resolve) => simulated.once('credentialsApplied', resolve));
    await simulated.start();
    try {
      await applied;
      await expect
        .poll(async () => (await center(owner.token)).arrivalsToday[0]!.locks[0]!.state)
        .toBe('confirmed');
    } finally {
      await simulated.stop();
    }
  });

  it('shows imported feeds and their errors', async () => {
    const created = await t.request({
      method: 'POST',
      url: `/api3/listing/${flat}/ical/feed/new`,
      token: owner.token,
      payload: { name: 'Airbnb', url: 'https://calendar.example.invalid/flat.ics' },
    });
    expect(created.statusCode).toBe(201);
    await t.request({
      method: 'POST',
      url: `/api3/listing/${flat}/ical/feed/${created.json()._id}/sync`,
      token: owner.token,
      payload: {},
    });
    // "Sync now" queues the read; the import job runs it in the background.
    await t.app.ical.importer.flush();
    const feeds = (await center(owner.token)).listings.find((l) => l._id === flat)!.feeds;
    expect(feeds).toEqual([expect.objectContaining({ name: 'Airbnb', lastSuccessAt: null })]);
    expect(feeds[0]!.lastError).toBeTruthy();
  });

  it('shows a member only the listings they look after, and a member who looks after none nothing', async () => {
    const view = await center(cohost.token, owner.portalId);
    expect(view.hosting).toMatchObject({ scope: 'listingUser' });
    expect(view.listings.map((l) => l.title)).toEqual(['Garden studio']);
    expect(view.arrivalsToday).toEqual([]);
    expect(view.departuresToday.map((s) => s.guestName)).toEqual(['Leo Leaving']);
    expect(view.pendingRequests.total).toBe(0);
    const none = await center(plainMember.token, owner.portalId);
    expect(none).toMatchObject({
      hosting: null,
      listings: [],
      arrivalsToday: [],
      pendingRequests: { total: 0 },
    });
  });

  it("shows another portal's admin none of it", async () => {
    const view = await center(stranger.token);
    expect(view.hosting).toMatchObject({ portalId: stranger.portalId });
    expect(view.listings).toEqual([]);
    expect(JSON.stringify(view)).not.toContain('Ana Arriving');
    const override = await t.request({
      method: 'GET',
      url: '/api3/rentalcenter',
      token: stranger.token,
      portal: owner.portalId,
    });
    expect(override.statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url: '/api3/rentalcenter' })).statusCode).toBe(401);
  });

  it('shows a guest who saved their stay to an account that stay, with its page', async () => {
    const token = decodeURIComponent(arriving.landingPath!.slice('/s?t='.length));
    // The guest has no account: the link goes to their address, where they choose a password.
    const saved = await keepStayInNewAccount(t, token, { email: guestEmail, name: 'Ana' }, '10.9.9.9');
    expect(saved.statusCode, saved.body).toBe(200);
    const view = await center(saved.json().token);
    expect(view.guestStays).toEqual([
      expect.objectContaining({
        _id: arriving._id,
        listingTitle: 'Harbour flat',
        state: 'approved',
        landingPath: arriving.landingPath,
        reviewPath: null,
        reviewed: false,
      }),
    ]);
    // Their own (new) portal hosts nothing.
    expect(view.listings).toEqual([]);
    expect((await center(owner.token)).guestStays).toEqual([]);
  });
});

describe('the rental center’s stays (GET rentalcenter/stays)', () => {
  it('pages, sorts and filters the stays of every hosted listing', async () => {
    const all: RentalCenterStaysPage = (await stays('?limit=2&sortBy=startDate')).json();
    expect(all.total).toBe(4);
    expect(all.items.map((s) => s.guestName)).toEqual(['Leo Leaving', 'Ana Arriving']);
    const byGuest: RentalCenterStaysPage = (await stays('?sortBy=guestName&descending=true')).json();
    expect(byGuest.items.map((s) => s.guestName)).toEqual([
      'Uma Upcoming',
      'Pia Pending',
      'Leo Leaving',
      'Ana Arriving',
    ]);
    const studioOnly: RentalCenterStaysPage = (
      await stays(`?filterBy=listingId&filterValue=${studio}`)
    ).json();
    expect(studioOnly.items.map((s) => s.guestName).sort()).toEqual(['Leo Leaving', 'Uma Upcoming']);
    const requested: RentalCenterStaysPage = (await stays('?filterBy=state&filterValue=requested')).json();
    expect(requested.items.map((s) => s.guestName)).toEqual(['Pia Pending']);
    const current: RentalCenterStaysPage = (await stays('?filterBy=when&filterValue=current')).json();
    expect(current.items.map((s) => s.guestName).sort()).toEqual(['Ana Arriving', 'Leo Leaving']);
    const searched: RentalCenterStaysPage = (await stays('?search=uma')).json();
    expect(searched.items.map((s) => s.guestName)).toEqual(['Uma Upcoming']);
    for (const query of [
      '?filterBy=state&filterValue=lost',
      '?filterBy=when&filterValue=soon',
      '?sortBy=price',
      '?filterBy=listingId',
    ]) {
      expect((await stays(query)).statusCode, query).toBe(400);
    }
  });

  it('keeps to what the person hosts', async () => {
    const cohostView: RentalCenterStaysPage = (await stays('', cohost.token, owner.portalId)).json();
    expect(cohostView.items.map((s) => s.listingTitle)).toEqual(['Garden studio', 'Garden studio']);
    const probing: RentalCenterStaysPage = (
      await stays(`?filterBy=listingId&filterValue=${flat}`, cohost.token, owner.portalId)
    ).json();
    expect(probing).toEqual({ items: [], total: 0 });
    const foreign: RentalCenterStaysPage = (
      await stays(`?filterBy=listingId&filterValue=${flat}`, stranger.token)
    ).json();
    expect(foreign).toEqual({ items: [], total: 0 });
    expect((await stays('', plainMember.token, owner.portalId)).json()).toEqual({ items: [], total: 0 });
  });
});
