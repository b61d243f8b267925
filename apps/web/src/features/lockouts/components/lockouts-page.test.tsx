import type { LockoutRecord } from '@latchkey/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { storage } from '@/lib/storage';
import { apiError, json, type MockHandler } from '@/testing/fetch-mock';
import { sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';
import { setupUser } from '@/testing/user';

const works: LockoutRecord = {
  _id: 'lockout-1',
  name: 'Floor works',
  from: '2020-01-10T08:00:00.000Z',
  until: null,
  exemptAdmins: true,
  devices: [
    { _id: 'device-1', name: 'Front door', timeZone: 'Europe/Rome' },
    { _id: 'device-2', name: 'Back gate', timeZone: 'Europe/Rome' },
  ],
  active: true,
  createdAt: '2020-01-01T00:00:00.000Z',
};

function setup(lockouts: MockHandler, path = '/app/lockout') {
  storage.setAuthToken(validToken());
  return renderApp(path, {
    'GET auth': () => json(sessionFixture(['admin'])),
    'GET portal/lockouts': lockouts,
  });
}

describe('LockoutsPage', () => {
  it('lists lockouts with their period, locks and badges', async () => {
    setup(() => json({ items: [works], total: 1 }));
    const link = await screen.findByRole('link', { name: 'Floor works' });
    expect(link).toHaveAttribute('href', '/app/lockout/lockout-1');
    const row = link.closest('tr')!;
    // On the locks' clock (Rome, UTC+1 in January), labelled with the zone.
    expect(within(row).getAllByText('From Jan 10, 2020, 09:00 Europe/Rome, no end').length).toBeGreaterThan(
      0,
    );
    expect(within(row).getAllByText(/Front door and Back gate/).length).toBeGreaterThan(0);
    expect(within(row).getByText('Active')).toBeInTheDocument();
    expect(within(row).getAllByText('Admins exempt').length).toBeGreaterThan(0);
    expect(screen.getByText('1 of 1 lockout')).toBeInTheDocument();
  });

  it('invites the first lockout when there is none', async () => {
    setup(() => json({ items: [], total: 0 }));
    expect(await screen.findByRole('heading', { name: 'No lockouts yet' })).toBeInTheDocument();
    const links = screen.getAllByRole('link', { name: 'New lockout' });
    expect(links[0]).toHaveAttribute('href', '/app/lockout/edit/new');
  });

  it('filters by state through the URL and offers a way back from no match', async () => {
    const { calls, router } = setup(() => json({ items: [], total: 0 }), '/app/lockout?state=upcoming');
    expect(await screen.findByRole('heading', { name: 'No lockouts match' })).toBeInTheDocument();
    const call = calls.find((c) => c.path === 'portal/lockouts')!;
    expect(new URL(call.url, 'http://x').searchParams.get('filterBy')).toBe('state');
    expect(new URL(call.url, 'http://x').searchParams.get('filterValue')).toBe('upcoming');
    await setupUser().click(screen.getByRole('button', { name: 'Show all lockouts' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it('shows a failed load with a retry', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    let fail = true;
    setup(() => {
      if (fail) {
        fail = false;
        return apiError(403, 'forbidden', 'Not allowed here');
      }
      return json({ items: [works], total: 1 });
    });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Could not load the lockouts');
    await setupUser().click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('link', { name: 'Floor works' })).toBeInTheDocument();
  });
});
