import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { storage } from '@/lib/storage';
import { apiError, json } from '@/testing/fetch-mock';
import { dashboardFixture, memberFixture, portalFixture, sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';

const counts = { members: 12, admins: 2, users: 10, invited: 3, suspended: 1 };

describe('DashboardPage', () => {
  it('shows the portal, its status, counts and the latest members', async () => {
    storage.setAuthToken(validToken());
    const portal = portalFixture({ expireDate: '2020-06-01T16:00:00.000Z', current: false });
    const { calls } = renderApp('/app/dashboard', {
      'GET auth': () => json(sessionFixture(['admin'])),
      'GET portal/dashboard': () => json(dashboardFixture(portal, counts)),
      'GET portal/users': () =>
        json({
          items: [
            memberFixture(),
            memberFixture({ _id: 'u3', firstName: '', lastName: '', email: 'x@y.z', status: 'invited' }),
          ],
          total: 12,
        }),
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Harbor View' })).toBeInTheDocument();
    expect(screen.getAllByText(/Expired on Jun 1, 2020/).length).toBeGreaterThan(0);
    expect(screen.getByText('12')).toBeInTheDocument();
    expect(await screen.findByText('Grace Hopper')).toBeInTheDocument();
    expect(screen.getByText('x@y.z')).toBeInTheDocument();
    const list = calls.find((c) => c.path === 'portal/users')!;
    expect(list.url).toContain('limit=5');
    expect(list.url).toContain('sortBy=joinedAt');
    expect(list.url).toContain('descending=true');
  });

  it('renames the portal, sending only what changed', async () => {
    storage.setAuthToken(validToken());
    let portal = portalFixture();
    const { calls } = renderApp('/app/dashboard', {
      'GET auth': () => json(sessionFixture(['admin'])),
      'GET portal/dashboard': () => json(dashboardFixture(portal, counts)),
      'GET portal/users': () => json({ items: [], total: 0 }),
      'POST portal/data': (call) => {
        portal = { ...portal, ...(call.body as object) };
        return json(portal);
      },
    });
    const user = userEvent.setup();
    const name = await screen.findByLabelText(/^Portal name/);
    await user.clear(name);
    await user.type(name, 'Harbor View North');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Portal saved')).toBeInTheDocument();
    expect(calls.find((c) => c.path === 'portal/data')!.body).toEqual({ name: 'Harbor View North' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Harbor View North' })).toBeInTheDocument();
  });

  it('shows an error with a retry when the dashboard cannot load', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    storage.setAuthToken(validToken());
    renderApp('/app/dashboard', {
      'GET auth': () => json(sessionFixture(['admin'])),
      'GET portal/dashboard': () => apiError(500, 'internal', 'boom'),
    });
    expect(await screen.findByText('Could not load the dashboard')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument());
  });
});
