import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { storage } from '@/lib/storage';
import { json } from '@/testing/fetch-mock';
import { sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';
import { setupUser } from '@/testing/user';

// The navigation's hidden entries (GET content/nav) and CMS mode's hide/show controls in the frame.

afterEach(() => window.localStorage.clear());

const navigation = async () => screen.findByRole('navigation', { name: 'Main navigation' });

describe('hidden navigation entries', () => {
  it('leaves the entries staff hid out of an admin’s navigation, even with a stored cms flag', async () => {
    storage.setAuthToken(validToken());
    storage.setCms(true);
    renderApp('/app/no-such-page', {
      'GET auth': () => json(sessionFixture(['admin'])),
      'GET content/nav': () => json({ hidden: ['/app/keys'] }),
    });
    const nav = await navigation();
    await waitFor(() => expect(within(nav).queryByRole('link', { name: 'Keys' })).not.toBeInTheDocument());
    expect(within(nav).getByRole('link', { name: 'Lockouts' })).toBeInTheDocument();
    // An admin is not platform staff: no controls, whatever local storage says.
    expect(within(nav).queryByRole('button', { name: /in the navigation$/ })).not.toBeInTheDocument();
  });

  it('shows staff in CMS mode every entry, with a control that hides or shows it for everyone', async () => {
    storage.setAuthToken(validToken());
    storage.setCms(true);
    const app = renderApp('/app/no-such-page', {
      'GET auth': () => json(sessionFixture(['admin', 'superAdmin'])),
      'GET content/nav': () => json({ hidden: ['/app/keys'] }),
      'PUT content/nav': () => json({ hidden: [] }),
    });
    const nav = await navigation();
    const show = await within(nav).findByRole('button', { name: 'Show Keys in the navigation' });
    expect(within(nav).getByRole('link', { name: 'Keys' })).toBeInTheDocument();
    await setupUser().click(show);
    await waitFor(() =>
      expect(app.calls.find((call) => call.method === 'PUT' && call.path === 'content/nav')?.body).toEqual({
        to: '/app/keys',
        hidden: false,
      }),
    );
    expect(
      await within(nav).findByRole('button', { name: 'Hide Keys in the navigation' }),
    ).toBeInTheDocument();
  });
});
