import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { storage } from '@/lib/storage';
import { json } from '@/testing/fetch-mock';
import { sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';
import { setupUser } from '@/testing/user';

describe('DevToolsPage', { timeout: 60_000 }, () => {
  it('lists the developer tools for platform staff, one nav entry leading there', async () => {
    storage.setAuthToken(validToken());
    const { router } = renderApp('/app/devTools', { 'GET auth': () => json(sessionFixture(['superAdmin'])) });
    expect(await screen.findByRole('heading', { level: 1, name: 'Developer tools' })).toBeInTheDocument();
    const main = screen.getByRole('main');
    expect(within(main).getByRole('link', { name: 'API console' })).toHaveAttribute(
      'href',
      '/app/devTools/api',
    );
    expect(within(main).getByRole('link', { name: 'Dev mailbox' })).toHaveAttribute(
      'href',
      '/app/devTools/mail',
    );
    expect(within(main).getByRole('link', { name: 'Payments' })).toHaveAttribute(
      'href',
      '/app/devTools/payments',
    );
    expect(within(main).getByRole('link', { name: 'API test page' })).toHaveAttribute('href', '/test/api');
    expect(within(main).getByRole('link', { name: 'API reference' })).toHaveAttribute('href', '/api3/docs');

    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    expect(within(nav).getByRole('link', { name: 'Developer tools' })).toHaveAttribute(
      'href',
      '/app/devTools',
    );
    // The mailbox and payments have no nav entries of their own any more.
    expect(within(nav).queryByRole('link', { name: 'Dev mailbox' })).not.toBeInTheDocument();
    expect(within(nav).queryByRole('link', { name: 'Payments' })).not.toBeInTheDocument();

    await setupUser().click(within(main).getByRole('link', { name: 'API console' }));
    // The console's code loads on demand: allow a busy machine its time.
    expect(
      await screen.findByRole('heading', { level: 1, name: 'API console' }, { timeout: 20_000 }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/app/devTools/api');
  });

  it('is for platform staff only', async () => {
    storage.setAuthToken(validToken());
    renderApp('/app/devTools', { 'GET auth': () => json(sessionFixture(['admin'])) });
    expect(await screen.findByRole('heading', { name: /don.t have access/i })).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    expect(within(nav).queryByRole('link', { name: 'Developer tools' })).not.toBeInTheDocument();
  });
});
