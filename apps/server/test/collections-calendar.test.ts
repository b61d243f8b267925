import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTwoPortals, type TwoPortals } from './fixtures';
import { TestApp } from './test-app';

/**
 * calendarEvent (issue 21, item 3; features/calendars): one entry read by its id, a block or a
 * stay as the listing's calendar shows it, and DELETE opening the owner's block again, through the
 * calendar's own service. The registry-driven specs walk the refusals; these are the answers.
 */

let t: TestApp;
let portals: TwoPortals;

beforeAll(async () => {
  t = await TestApp.start();
  portals = await makeTwoPortals(t);
});
afterAll(() => t.close());

const request = (method: 'GET' | 'POST' | 'DELETE', url: string, token: string, payload?: object) =>
  t.request({ method, url: `/api3/${url}`, token, ...(payload && { payload }) });

/** The UTC date `days` from today. */
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

describe('calendarEvent by id', () => {
  it('answers a block and a stay as the calendar shows them, and another portal’s as missing', async () => {
    const { a, b } = portals;
    const block = await request('GET', `calendarEvent/${a.calendarBlockId}`, a.admin);
    expect(block.statusCode, block.body).toBe(200);
    expect(block.json()).toMatchObject({
      _id: a.calendarBlockId,
      kind: 'block',
      listingId: a.listingId,
      note: 'Painting',
      source: 'owner',
    });

    // The fixtures' waiting request: a stay on the calendar, with no access windows until approved.
    const stay = await request('GET', `calendarEvent/${a.stayId}`, a.admin);
    expect(stay.statusCode, stay.body).toBe(200);
    expect(stay.json()).toMatchObject({
      _id: a.stayId,
      kind: 'stay',
      listingId: a.listingId,
      state: 'requested',
      windows: [],
    });

    for (const id of [b.calendarBlockId, b.stayId]) {
      expect((await request('GET', `calendarEvent/${id}`, a.admin)).statusCode).toBe(404);
    }
  });

  it('gives an approved stay’s access windows, as the listing’s calendar does', async () => {
    const { a } = portals;
    const asked = await t.request({
      method: 'POST',
      url: `/api3/device/${a.listingId}/request`,
      payload: {
        name: 'Window Guest',
        email: 'window@example.com',
        startDate: inDays(90),
        endDate: inDays(92),
      },
      remoteAddress: '10.9.1.7',
    });
    expect(asked.statusCode, asked.body).toBe(201);
    const stayId = asked.json()._id as string;
    expect(
      (await request('POST', `device/${a.listingId}/request/${stayId}`, a.admin, { action: 'approve' }))
        .statusCode,
    ).toBe(200);

    const entry = (await request('GET', `calendarEvent/${stayId}`, a.admin)).json();
    const calendar = (
      await t.request({
        method: 'GET',
        url: `/api3/device/${a.listingId}/calendar?from=${inDays(90)}&to=${inDays(92)}`,
        token: a.admin,
      })
    ).json();
    expect(entry.state).toBe('approved');
    expect(entry.windows.length).toBeGreaterThan(0);
    expect(entry.windows).toEqual(calendar.windows.filter((w: { stayId: string }) => w.stayId === stayId));
  });
});

describe('DELETE calendarEvent/{id}', () => {
  it('opens the owner’s block again, refuses a stay with the way to do it, and leaves another portal’s alone', async () => {
    const { a, b } = portals;
    const made = await request('POST', 'calendarEvent/new', a.admin, {
      listingId: a.listingId,
      startDate: inDays(120),
      endDate: inDays(123),
      note: 'Floors',
    });
    expect(made.statusCode, made.body).toBe(201);
    const blockId = made.json()._id as string;

    const stay = await request('DELETE', `calendarEvent/${a.stayId}`, a.admin);
    expect(stay.statusCode).toBe(409);
    expect(stay.json().error.message).toMatch(/decline the request or cancel the stay/);
    expect((await request('DELETE', `calendarEvent/${blockId}`, b.admin)).statusCode).toBe(404);
    expect((await request('DELETE', `calendarEvent/${blockId}`, a.user)).statusCode).toBe(403);

    expect((await request('DELETE', `calendarEvent/${blockId}`, a.admin)).statusCode).toBe(204);
    expect((await request('GET', `calendarEvent/${blockId}`, a.admin)).statusCode).toBe(404);
    const listed = await request('POST', 'calendarEvent', a.admin, {
      listingId: a.listingId,
      from: inDays(119),
      to: inDays(125),
    });
    expect(listed.json().items).toEqual([]);
    // Its nights take requests again, and the change is in the portal's change log.
    const audit = await t.request({
      method: 'GET',
      url: `/api3/portal/audit?filterBy=action&filterValue=listing.calendar.unblock`,
      token: a.admin,
    });
    expect(audit.statusCode, audit.body).toBe(200);
    expect(JSON.stringify(audit.json())).toContain(inDays(120));
    expect((await request('DELETE', `calendarEvent/${blockId}`, a.admin)).statusCode).toBe(404);
  });
});
