import type { PortalContext } from '@latchkey/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { storage } from '@/lib/storage';
import { apiError, json, type MockHandler } from '@/testing/fetch-mock';
import { dashboardFixture, portalFixture, sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';
import { setupUser } from '@/testing/user';

const seaside = portalFixture({ _id: 'portal-2', name: 'Seaside Lofts', ownerId: 'user-9' });
const invited: PortalContext = { portal: seaside, role: 'admin', status: 'invited', viaPlatformRole: false };

function setup(routes: Record<string, MockHandler> = {}) {
  storage.setAuthToken(validToken());
  return renderApp('/space/portal-2', {
    'GET auth': () => json(sessionFixture(['admin'])),
    'GET portal/user/portal/portal-2': () => json(invited),
    ...routes,
  });
}

describe('SpaceInvitationPage', () => {
  it('accepts, switches to the portal and goes to its dashboard', async () => {
    let accepted = false;
    const { calls, router } = setup({
      'POST portal/user/portal/portal-2/accept': () => {
        accepted = true;
        return json({ status: 'accepted', portalId: 'portal-2' });
      },
      'GET portal/user/portal/current/portal-2': () => json({ ...invited, status: 'active' }),
      'GET auth': (call) =>
        json(
          call.headers['x-portal-override'] === 'portal-2' && accepted
            ? sessionFixture(['admin'], { portal: seaside, portalOwned: 'portal-1' })
            : sessionFixture(['admin']),
        ),
      'GET portal/dashboard': () => json(dashboardFixture(seaside)),
      'GET portal/users': () => json({ items: [], total: 0 }),
    });
    expect(
      await screen.findByRole('heading', { name: 'You are invited to Seaside Lofts' }),
    ).toBeInTheDocument();
    expect(screen.getByText('Join as an admin, or decline.')).toBeInTheDocument();
    await setupUser().click(screen.getByRole('button', { name: 'Accept invitation' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/dashboard'));
    expect(calls.some((c) => c.method === 'POST' && c.path === 'portal/user/portal/portal-2/accept')).toBe(
      true,
    );
    expect(storage.getPortal()).toBe('portal-2');
    expect(await screen.findByRole('heading', { level: 1, name: 'Seaside Lofts' })).toBeInTheDocument();
  });

  it('asks to confirm the email first when the server refuses (403)', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { router } = setup({
      'POST portal/user/portal/portal-2/accept': () =>
        apiError(403, 'forbidden', 'Confirm your email address first; then accept the invitation'),
    });
    await setupUser().click(await screen.findByRole('button', { name: 'Accept invitation' }));
    expect(await screen.findByText('Confirm your email first')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Confirm your email address' })).toHaveAttribute(
      'href',
      '/must-activate',
    );
    expect(router.state.location.pathname).toBe('/space/portal-2');
    expect(storage.getPortal()).toBeNull();
  });

  it('declines after a confirmation', async () => {
    const { calls } = setup({
      'POST portal/user/portal/portal-2/decline': () => json({ status: 'declined', portalId: 'portal-2' }),
    });
    const user = setupUser();
    await user.click(await screen.findByRole('button', { name: 'Decline' }));
    const dialog = await screen.findByRole('dialog', { name: 'Decline the invitation?' });
    await user.click(within(dialog).getByRole('button', { name: 'Decline invitation' }));
    expect(await screen.findByRole('heading', { name: 'Invitation declined' })).toBeInTheDocument();
    expect(calls.some((c) => c.path === 'portal/user/portal/portal-2/decline')).toBe(true);
  });

  it('says when there is no invitation', async () => {
    setup({ 'GET portal/user/portal/portal-2': () => apiError(404, 'not_found', 'Portal not found') });
    expect(await screen.findByRole('heading', { name: 'No invitation here' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to my home' })).toHaveAttribute('href', '/app/dashboard');
  });
});
