import { screen, waitFor, within } from '@testing-library/react';
import { permissionsFor, type AppRole } from '@latchkey/shared';
import { describe, expect, it } from 'vitest';
import { paths } from '@/config/paths';
import { storage } from '@/lib/storage';
import { apiError, heldAnswer, json } from '@/testing/fetch-mock';
import {
  dashboardFixture,
  deviceFixture,
  deviceUserFixture,
  listingFixture,
  memberFixture,
  sessionFixture,
} from '@/testing/fixtures';
import { expiredToken, validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';
import { AREA_FRAMES } from './area-frames';
import type { AppRouteObject } from './route-handle';
import { createRoutes } from './router';

const dashboardApi = (session = sessionFixture(['admin'])) => ({
  'GET auth': () => json(session),
  'GET portal/dashboard': () =>
    json(dashboardFixture(session.portal!, { members: 12, admins: 2, users: 10, invited: 3, suspended: 1 })),
  'GET portal/users': () => json({ items: [memberFixture()], total: 12 }),
});

describe('route guards', () => {
  it('sends a signed-out visitor to the root with a redirect back', async () => {
    const { router } = renderApp('/app/dashboard');
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(router.state.location.search).toBe('?redirect=%2Fapp%2Fdashboard');
  });

  it('treats an expired token as signed out', async () => {
    storage.setAuthToken(expiredToken());
    const { router, calls } = renderApp('/app/profile', dashboardApi());
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(calls.some((c) => c.path === 'auth')).toBe(false);
    expect(storage.getAuthToken()).toBeNull();
  });

  it('shows a basic user "no access" on /app/dashboard, with a link to their home', async () => {
    storage.setAuthToken(validToken());
    const { calls } = renderApp('/app/dashboard', dashboardApi(sessionFixture(['user'])));
    expect(await screen.findByRole('heading', { name: /don.t have access/i })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to my home' })).toHaveAttribute('href', '/user');
    expect(calls.some((c) => c.path === 'portal/dashboard')).toBe(false);
    // The nav offers the basic user only what they may open.
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    expect(nav).not.toHaveTextContent('Dashboard');
    expect(nav).toHaveTextContent('Settings');
  });

  it('shows an admin the dashboard', async () => {
    storage.setAuthToken(validToken());
    renderApp('/app', dashboardApi());
    expect(await screen.findByRole('heading', { level: 1, name: 'Harbor View' })).toBeInTheDocument();
    expect(await screen.findByText('Grace Hopper')).toBeInTheDocument();
    expect(screen.getByText('Invited')).toBeInTheDocument();
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(screen.getByRole('main')).toBeInTheDocument();
  });

  it('offers an admin the portal screens in the nav', async () => {
    storage.setAuthToken(validToken());
    const admin = renderApp('/app/profile', dashboardApi());
    const nav = await screen.findByRole('navigation', { name: 'Main navigation' });
    const links = Object.fromEntries(
      within(nav)
        .getAllByRole('link')
        .map((link) => [link.textContent, link.getAttribute('href')]),
    );
    expect(links).toEqual({
      Dashboard: '/app/dashboard',
      Activity: '/app/activity',
      Reports: '/app/deviceanduserreports',
      Locks: '/app/device',
      'Offline locks': '/app/offline',
      Alerts: '/app/notificationAndAlert',
      People: '/app/user',
      Groups: '/app/group',
      Cards: '/app/cards',
      'Access requests': '/app/access-requests',
      Lockouts: '/app/lockout',
      Keys: '/app/keys',
      'Company codes': '/app/access-codes',
      Listings: '/app/listing',
      'Rental center': '/app/rentalcenter',
      Reviews: '/app/review',
      'Change log': '/app/adminChangeLog',
      Billing: '/app/billing',
      Plan: '/app/upgrade',
      Shop: '/app/product',
      'Sync center': '/sync/center',
      Zones: '/app/zones',
      'Help & support': '/app/help',
      Settings: '/app/settings',
    });
    admin.unmount();
  });

  it('offers a basic user none of the portal screens', async () => {
    storage.setAuthToken(validToken());
    renderApp('/app/device/device-1', dashboardApi(sessionFixture(['user'])));
    expect(await screen.findByRole('heading', { name: /don.t have access/i })).toBeInTheDocument();
    const userNav = screen.getByRole('navigation', { name: 'Main navigation' });
    expect(
      within(userNav)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Rental center', 'Reviews', 'Billing', 'Shop', 'Settings', 'Help & support']);
  });

  it('lets a superAdmin open admin screens', async () => {
    storage.setAuthToken(validToken());
    renderApp('/app/dashboard', dashboardApi(sessionFixture(['superAdmin'])));
    expect(await screen.findByRole('heading', { level: 1, name: 'Harbor View' })).toBeInTheDocument();
  });

  it('goes to the root when the session turns out to be revoked (401)', async () => {
    storage.setAuthToken(validToken());
    const { router } = renderApp('/app/profile', {
      'GET auth': () => apiError(401, 'unauthorized', 'Sign in'),
    });
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(storage.getAuthToken()).toBeNull();
  });
});

describe('landing', () => {
  it('takes an admin to the dashboard', async () => {
    storage.setAuthToken(validToken());
    const { router } = renderApp('/auth/landing', dashboardApi());
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/dashboard'));
  });

  it('takes a basic user to their locks', async () => {
    storage.setAuthToken(validToken());
    const { router } = renderApp('/auth/landing', { 'GET auth': () => json(sessionFixture(['user'])) });
    await waitFor(() => expect(router.state.location.pathname).toBe('/user'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Your locks' })).toBeInTheDocument();
  });

  it('honours a same-origin redirect and ignores another origin', async () => {
    storage.setAuthToken(validToken());
    const first = renderApp('/auth/landing?redirect=%2Fapp%2Fprofile', dashboardApi());
    await waitFor(() => expect(first.router.state.location.pathname).toBe('/app/profile'));
    first.unmount();
    const second = renderApp('/auth/landing?redirect=https%3A%2F%2Fevil.example%2F', dashboardApi());
    await waitFor(() => expect(second.router.state.location.pathname).toBe('/app/dashboard'));
  });

  it('sends a signed-in person from the login page to the landing', async () => {
    storage.setAuthToken(validToken());
    const { router } = renderApp('/auth/login', dashboardApi());
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/dashboard'));
  });
});

describe('other routes', () => {
  it('shows a not-found page for unknown paths, with a link home', async () => {
    renderApp('/no/such/page');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /back to the start/i })).toHaveAttribute('href', '/');
  });

  it('signs out: calls auth/logout, forgets the session and goes to the root', async () => {
    storage.setAuthToken(validToken());
    storage.setPortal('portal-9');
    storage.setCart({ lock: 1 });
    const { router, calls } = renderApp('/auth/logout', { 'POST auth/logout': () => json(undefined, 204) });
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(calls.map((c) => `${c.method} ${c.path}`)).toContain('POST auth/logout');
    expect(storage.getAuthToken()).toBeNull();
    expect(storage.getPortal()).toBeNull();
    expect(storage.getCart()).toEqual({ lock: 1 });
  });

  it('sets the document title from the route', async () => {
    renderApp('/signup');
    expect(await screen.findByRole('heading', { name: 'Create your account' })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Create your account · Latchkey'));
  });
});

describe("a screen's first reads start with its route (startReads)", () => {
  const count = (calls: { method: string; path: string }[], path: string) =>
    calls.filter((call) => call.method === 'GET' && call.path === path).length;

  it("reads a lock's People tab beside the lock itself, once, before the lock has answered", async () => {
    storage.setAuthToken(validToken());
    const lock = heldAnswer(deviceFixture({ _id: 'd1', name: 'Garden gate' }));
    const { calls } = renderApp('/app/device/d1', {
      'GET auth': () => json(sessionFixture(['admin'])),
      'GET portal/device/d1': lock.handler,
      'GET device/d1/users': () => json([deviceUserFixture()]),
      'GET device/d1/possibleUsers': () => json([]),
    });
    // The People tab's reads would otherwise wait for the lock's answer and the page's render.
    await waitFor(() => expect(count(calls, 'device/d1/users')).toBe(1));
    expect(count(calls, 'device/d1/possibleUsers')).toBe(1);
    lock.release();
    expect(await screen.findByRole('heading', { level: 1, name: 'Garden gate' })).toBeInTheDocument();
    expect(await screen.findByText('Grace Hopper')).toBeInTheDocument();
    // The page found the answers under its own keys: nothing was read twice.
    for (const path of ['portal/device/d1', 'device/d1/users', 'device/d1/possibleUsers'])
      expect(count(calls, path), path).toBe(1);
  });

  it('reads only the lock when the address names another tab', async () => {
    storage.setAuthToken(validToken());
    const lock = heldAnswer(deviceFixture({ _id: 'd1' }));
    const { calls } = renderApp('/app/device/d1?tab=history', {
      'GET auth': () => json(sessionFixture(['admin'])),
      'GET portal/device/d1': lock.handler,
    });
    await waitFor(() => expect(count(calls, 'portal/device/d1')).toBe(1));
    expect(count(calls, 'device/d1/users')).toBe(0);
    expect(count(calls, 'device/d1/possibleUsers')).toBe(0);
    lock.release();
  });

  it("reads a listing's stays, calendar and feeds beside the listing, as its tab asks for them", async () => {
    storage.setAuthToken(validToken());
    const listing = heldAnswer(listingFixture({ _id: 'l1', locks: [], published: false }));
    const { calls } = renderApp('/app/listing/l1', {
      'GET auth': () => json(sessionFixture(['admin'])),
      'GET listing/l1': listing.handler,
      'GET listing/l1/request': () => json({ items: [], total: 0 }),
      'GET device/l1/calendar': (call) => {
        const query = new URL(call.url, 'http://localhost').searchParams;
        return json({
          listingId: 'l1',
          title: 'Harbour flat',
          timeZone: 'Europe/Lisbon',
          today: query.get('from'),
          from: query.get('from'),
          to: query.get('to'),
          bookings: [],
          blocks: [],
          windows: [],
        });
      },
      'GET listing/l1/ical': () =>
        json({ exportUrl: 'https://example.test/ical/l1.ics', exportRotatedAt: null, feeds: [] }),
    });
    await waitFor(() => expect(count(calls, 'listing/l1/request')).toBe(1));
    expect(count(calls, 'device/l1/calendar')).toBe(1);
    expect(count(calls, 'listing/l1/ical')).toBe(1);
    listing.release();
    expect(await screen.findByRole('heading', { level: 1, name: 'Harbour flat' })).toBeInTheDocument();
    expect(await screen.findByRole('region', { name: 'Calendar' })).toBeInTheDocument();
    expect(await screen.findByRole('region', { name: 'Requests and stays' })).toBeInTheDocument();
    for (const path of ['listing/l1', 'listing/l1/request', 'device/l1/calendar', 'listing/l1/ical'])
      expect(count(calls, path), path).toBe(1);
  });

  /** A lock page opened while the session call is held, this device's last session having been `last`. */
  function openLockAwaitingSession(last: AppRole) {
    storage.setAuthToken(validToken());
    // What the last GET auth answer stored (brief §3).
    storage.setPermissions(permissionsFor([last]));
    const session = heldAnswer(sessionFixture(['admin']));
    const view = renderApp('/app/device/d1', {
      'GET auth': session.handler,
      'GET portal/device/d1': () => json(deviceFixture({ _id: 'd1', name: 'Garden gate' })),
      'GET device/d1/users': () => json([]),
      'GET device/d1/possibleUsers': () => json([]),
    });
    return { ...view, session };
  }

  it("starts an admin's reads beside the session call when this device's last session said admin", async () => {
    const { calls, session } = openLockAwaitingSession('admin');
    await waitFor(() => expect(count(calls, 'device/d1/users')).toBe(1));
    expect(count(calls, 'portal/device/d1')).toBe(1);
    session.release();
    expect(await screen.findByRole('heading', { level: 1, name: 'Garden gate' })).toBeInTheDocument();
    expect(count(calls, 'portal/device/d1')).toBe(1);
  });

  it("waits for the session when this device's last session was a basic user's", async () => {
    const { calls, session } = openLockAwaitingSession('user');
    await waitFor(() => expect(count(calls, 'auth')).toBe(1));
    expect(count(calls, 'portal/device/d1')).toBe(0);
    session.release();
    expect(await screen.findByRole('heading', { level: 1, name: 'Garden gate' })).toBeInTheDocument();
  });

  it('starts no portal reads for a basic user, who is shown they have no access', async () => {
    storage.setAuthToken(validToken());
    const { calls } = renderApp('/app/device/d1', { 'GET auth': () => json(sessionFixture(['user'])) });
    expect(await screen.findByRole('heading', { name: /don.t have access/i })).toBeInTheDocument();
    expect(
      calls.some((call) => call.path.startsWith('portal/device') || call.path.startsWith('device/')),
    ).toBe(false);
  });
});

describe('the route table', () => {
  /** The absolute address of every screen route (the leaves; layouts only frame them). */
  function screenAddresses(routes: readonly AppRouteObject[], parent = ''): string[] {
    return routes.flatMap((route) => {
      const address = route.path ? `${parent.replace(/\/$/, '')}/${route.path.replace(/^\//, '')}` : parent;
      return route.children ? screenAddresses(route.children, address) : [address || '/'];
    });
  }

  function patternsIn(config: object): string[] {
    return Object.values(config).flatMap((value: object) =>
      'pattern' in value ? [value.pattern as string] : patternsIn(value),
    );
  }

  it('has exactly one route for every path in config/paths.ts, and no route without one', () => {
    // The catch-alls (the root's, and each signed-in area's not-found in its frame) have no address.
    const routes = screenAddresses(createRoutes()).filter((address) => !address.endsWith('/*'));
    const declared = patternsIn(paths);
    expect(new Set(routes).size).toBe(routes.length);
    expect(new Set(declared).size).toBe(declared.length);
    expect([...routes].sort()).toEqual([...declared].sort());
  });
});

describe('the signed-in areas’ pages (area-frames.ts)', () => {
  it('names for each area the frame the router opens its screens in', async () => {
    const areas = createRoutes()[0]!.children!;
    for (const [area, module] of Object.entries(AREA_FRAMES)) {
      const route = areas.find((candidate) => candidate.path === area);
      expect(route, area).toBeDefined();
      const frame = await (route!.lazy as { Component: () => Promise<unknown> }).Component();
      const exports: Record<string, unknown> = await import(/* @vite-ignore */ `/${module}`);
      expect(Object.values(exports), area).toContain(frame);
    }
  });
});
