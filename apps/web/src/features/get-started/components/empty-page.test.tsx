import type { Session } from '@latchkey/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { storage } from '@/lib/storage';
import { apiError, json, type MockHandler } from '@/testing/fetch-mock';
import { portalFixture, sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';
import { setupUser } from '@/testing/user';

afterEach(() => window.localStorage.clear());

/** A signed-in person who acts in no portal, invited to Harbor View. */
const noPortal = (overrides: Partial<Session> = {}): Session =>
  sessionFixture([], {
    portal: null,
    portalOwned: null,
    memberships: [
      { portal: { _id: 'portal-1', name: 'Harbor View' }, role: 'admin', status: 'invited', owner: false },
    ],
    ...overrides,
  });

const rentalCenter = (guestStays: unknown[] = []) => ({
  hosting: null,
  listings: [],
  arrivalsToday: [],
  departuresToday: [],
  stayingNow: 0,
  pendingRequests: { total: 0, items: [] },
  guestStays,
});

function setup(path: string, routes: Record<string, MockHandler> = {}) {
  storage.setAuthToken(validToken());
  return renderApp(path, {
    'GET auth': () => json(noPortal()),
    'GET rentalcenter': () => json(rentalCenter()),
    ...routes,
  });
}

describe('empty: a person who acts in no portal', () => {
  it('is sent there from a portal screen, and offers to create a portal or answer invitations', async () => {
    const { router } = setup('/app/dashboard');
    // The first test of the file also loads the screen's code: a busy machine takes a while.
    const heading = await screen.findByRole(
      'heading',
      { level: 1, name: 'Welcome to Latchkey' },
      { timeout: 15_000 },
    );
    expect(heading).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/app/empty');
    expect(screen.getByRole('button', { name: 'Create your portal' })).toBeInTheDocument();
    const invitations = screen.getByRole('list', { name: 'Invitations' });
    expect(within(invitations).getByText('Harbor View')).toBeInTheDocument();
    expect(within(invitations).getByText('As an admin')).toBeInTheDocument();
    // No guest stays: nothing to open in the basic-user area.
    expect(screen.queryByRole('link', { name: 'Open your area' })).not.toBeInTheDocument();
  });

  it('lands there after sign-in (the landing) instead of an empty dashboard', async () => {
    const { router } = setup('/auth/landing');
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/empty'));
  });

  it('accepts an invitation, then works in that portal', async () => {
    let accepted = false;
    const { calls, router } = setup('/app/empty', {
      'GET auth': () => json(accepted ? sessionFixture(['admin'], { portalOwned: null }) : noPortal()),
      'POST portal/user/portal/portal-1/accept': () => {
        accepted = true;
        return json({ status: 'accepted', portalId: 'portal-1' });
      },
      'GET portal/user/portal/current/portal-1': () =>
        json({ portal: portalFixture(), role: 'admin', status: 'active', viaPlatformRole: false }),
    });
    await setupUser().click(
      await screen.findByRole('button', { name: 'Accept the invitation to Harbor View' }),
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/dashboard'));
    expect(calls.some((c) => c.path === 'portal/user/portal/portal-1/accept')).toBe(true);
    expect(storage.getPortal()).toBe('portal-1');
  });

  it('says to confirm the email first when accepting needs it, and declines', async () => {
    const { calls } = setup('/app/empty', {
      'POST portal/user/portal/portal-1/accept': () =>
        apiError(403, 'forbidden', 'Confirm your email address first'),
      'POST portal/user/portal/portal-1/decline': () => json({ status: 'declined', portalId: 'portal-1' }),
    });
    const user = setupUser();
    await user.click(await screen.findByRole('button', { name: 'Accept the invitation to Harbor View' }));
    // The notification of the previous test (a global store) may still be leaving: find this one.
    expect(await screen.findByText(/Confirm your email first/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Decline the invitation to Harbor View' }));
    await waitFor(() =>
      expect(calls.some((c) => c.path === 'portal/user/portal/portal-1/decline')).toBe(true),
    );
  });

  it('opens the basic-user area for a guest with stays', async () => {
    setup('/app/empty', {
      'GET rentalcenter': () =>
        json(
          rentalCenter([
            {
              _id: 's1',
              listingTitle: 'Bright two rooms',
              startDate: '2026-12-01',
              endDate: '2026-12-04',
              checkInTime: '15:00',
              checkOutTime: '11:00',
              timeZone: 'Europe/Berlin',
              state: 'approved',
              accessState: 'ready',
              landingPath: null,
              reviewPath: null,
              reviewed: false,
            },
          ]),
        ),
    });
    const open = await screen.findByRole('link', { name: 'Open your area' });
    expect(open).toHaveAttribute('href', '/user/rentalcenter');
  });
});

describe('the basic-user area for a person who acts in no portal', () => {
  it('sends them from /user (a portal’s locks) to empty', async () => {
    const { router } = setup('/user');
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome to Latchkey' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/app/empty');
  });
});
