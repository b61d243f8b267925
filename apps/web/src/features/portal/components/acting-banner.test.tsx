import type { PortalActing } from '@latchkey/shared';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { rememberActingReturn } from '@/lib/portal-override';
import { storage } from '@/lib/storage';
import { json } from '@/testing/fetch-mock';
import { sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';
import { setupUser } from '@/testing/user';

afterEach(() => {
  window.sessionStorage.clear();
  window.localStorage.clear();
});

const acting = (via: PortalActing['via']): PortalActing => ({
  via,
  portal: { _id: 'customer-1', name: 'Lakeside Clinic' },
  ownerEmail: 'clinic@example.com',
  reseller: via === 'reseller' ? { _id: 'r1', name: 'Keystone Integrators' } : null,
});

function setup(via: PortalActing['via'], roles: ('admin' | 'superAdmin')[] = ['admin']) {
  storage.setAuthToken(validToken());
  storage.setPortal('customer-1');
  return renderApp('/app/about', {
    'GET auth': () => json(sessionFixture(roles)),
    'GET portal/acting': () => json(acting(via)),
  });
}

const banner = () => screen.findByRole('region', { name: 'Working in another portal' });

describe('acting banner', () => {
  it('tells a reseller whose portal they work in, and takes them back to their customers', async () => {
    rememberActingReturn('/app/reseller');
    const { calls, router } = setup('reseller');
    expect(await banner()).toHaveTextContent(
      'You are working in Lakeside Clinic (clinic@example.com)’s portal as its reseller',
    );
    // The server was asked with the override, as every call of the portal is.
    expect(calls.find((c) => c.path === 'portal/acting')!.headers['x-portal-override']).toBe('customer-1');

    await setupUser().click(screen.getByRole('button', { name: 'Back to your portal' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/reseller'));
    expect(storage.getPortal()).toBeNull();
    expect(storage.getPortalContext()).toBeNull();
    expect(window.sessionStorage.getItem('latchkey.actingReturnTo')).toBeNull();
    await waitFor(() =>
      expect(screen.queryByRole('region', { name: 'Working in another portal' })).not.toBeInTheDocument(),
    );
  });

  it('says "as platform staff" to staff, and returns to where they opened the portal from', async () => {
    rememberActingReturn('/app/user/user-9?tab=access');
    const { router } = setup('platform', ['admin', 'superAdmin']);
    expect(await banner()).toHaveTextContent(
      'You are working in Lakeside Clinic (clinic@example.com)’s portal as platform staff',
    );
    await setupUser().click(screen.getByRole('button', { name: 'Back to your portal' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/user/user-9'));
    expect(router.state.location.search).toBe('?tab=access');
    expect(storage.getPortal()).toBeNull();
  });

  it('falls back to the reseller area for a reseller with nothing remembered, never to another site', async () => {
    window.sessionStorage.setItem('latchkey.actingReturnTo', '//evil.example/steal');
    const { router } = setup('reseller');
    await banner();
    await setupUser().click(screen.getByRole('button', { name: 'Back to your portal' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/reseller'));
  });

  it('falls back to the platform console for staff with nothing remembered', async () => {
    const { router } = setup('platform', ['admin', 'superAdmin']);
    await banner();
    await setupUser().click(screen.getByRole('button', { name: 'Back to your portal' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/platform'));
  });

  it('shows nothing for a member of the portal, and asks nothing without an override', async () => {
    const { calls } = setup('member');
    await screen.findByRole('heading', { level: 1 });
    await waitFor(() => expect(calls.some((c) => c.path === 'portal/acting')).toBe(true));
    expect(screen.queryByRole('region', { name: 'Working in another portal' })).not.toBeInTheDocument();

    window.localStorage.clear();
    storage.setAuthToken(validToken());
    const second = renderApp('/app/about', { 'GET auth': () => json(sessionFixture(['admin'])) });
    await screen.findAllByRole('heading', { level: 1 });
    expect(second.calls.some((c) => c.path === 'portal/acting')).toBe(false);
  });
});
