import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { storage } from '@/lib/storage';
import { apiError, json, type MockHandler } from '@/testing/fetch-mock';
import { openSealed, portalFixture, sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';
import { setupUser } from '@/testing/user';

describe('SettingsPage: profile and password', () => {
  it('saves the name', async () => {
    storage.setAuthToken(validToken());
    const session = sessionFixture(['user']);
    const { calls } = renderApp('/user/settingsProfile', {
      'GET auth': () => json(session),
      'POST auth/profile': (call) => json({ ...session.user, ...(call.body as object) }),
    });
    const user = setupUser();
    const first = await screen.findByLabelText('First name');
    await user.clear(first);
    await user.type(first, 'Augusta');
    await user.click(screen.getByRole('button', { name: 'Save details' }));
    expect(await screen.findByText('Profile saved')).toBeInTheDocument();
    expect(calls.find((c) => c.path === 'auth/profile')!.body).toEqual({
      firstName: 'Augusta',
      lastName: 'Lovelace',
    });
  });

  it('changes the password (sealed) and stores the new token', async () => {
    storage.setAuthToken(validToken('old'));
    const fresh = validToken('new');
    // /app/settingsProfile: the brief's address of the same page.
    const { calls } = renderApp('/app/settingsProfile', {
      'GET auth': () => json(sessionFixture(['admin'])),
      'POST auth/password': () => json({ token: fresh, expiresAt: '2099-01-01T00:00:00.000Z' }),
    });
    const user = setupUser();
    await user.type(await screen.findByLabelText(/^Current password/), 'old-password');
    await user.type(screen.getByLabelText(/^New password/), 'a-much-better-one');
    await user.type(screen.getByLabelText(/^Confirm new password/), 'a-much-better-one');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Password changed')).toBeInTheDocument();
    expect(storage.getAuthToken()).toBe(fresh);
    expect(openSealed(calls.find((c) => c.path === 'auth/password')!.body)).toEqual({
      currentPassword: 'old-password',
      newPassword: 'a-much-better-one',
    });
  });

  it('marks a wrong current password on its field', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    storage.setAuthToken(validToken());
    renderApp('/app/profile', {
      'GET auth': () => json(sessionFixture(['admin'])),
      'POST auth/password': () =>
        apiError(400, 'bad_request', 'Invalid input', [
          { path: 'currentPassword', message: 'is not correct' },
        ]),
    });
    const user = setupUser();
    await user.type(await screen.findByLabelText(/^Current password/), 'nope-nope');
    await user.type(screen.getByLabelText(/^New password/), 'a-much-better-one');
    await user.type(screen.getByLabelText(/^Confirm new password/), 'a-much-better-one');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    await waitFor(() =>
      expect(screen.getByLabelText(/^Current password/)).toHaveAccessibleDescription(
        'Current password is not right',
      ),
    );
  });

  it('refuses mismatched new passwords without calling the server', async () => {
    storage.setAuthToken(validToken());
    const { calls } = renderApp('/app/profile', { 'GET auth': () => json(sessionFixture(['admin'])) });
    const user = setupUser();
    await user.type(await screen.findByLabelText(/^Current password/), 'old-password');
    await user.type(screen.getByLabelText(/^New password/), 'a-much-better-one');
    await user.type(screen.getByLabelText(/^Confirm new password/), 'a-much-better-two');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('The two new passwords differ')).toBeInTheDocument();
    expect(calls.some((c) => c.path === 'auth/password')).toBe(false);
  });
});

const QR =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const OFF = {
  enabled: false,
  otpauthUri: 'otpauth://totp/Latchkey:ada%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=Latchkey',
  qrCode: QR,
  recoveryCodesLeft: 0,
};
const CODES = Array.from({ length: 10 }, (_, i) => `abcd${'efghij'[i % 6]}-k${i}mnop`.slice(0, 11));

function settings(routes: Record<string, MockHandler> = {}, path = '/app/settings') {
  storage.setAuthToken(validToken());
  return renderApp(path, {
    'GET auth': () => json(sessionFixture(['admin'])),
    'GET auth/twoFactor': () => json(OFF),
    ...routes,
  });
}

describe('SettingsPage: two-factor sign-in', () => {
  it('shows the QR code and key, turns on with a code and shows the recovery codes once', async () => {
    let enabled = false;
    const { calls } = settings({
      'GET auth/twoFactor': () =>
        json(enabled ? { enabled: true, otpauthUri: null, qrCode: null, recoveryCodesLeft: 10 } : OFF),
      'POST auth/twoFactor': () => {
        enabled = true;
        return json({ enabled: true, recoveryCodes: CODES });
      },
    });
    expect(
      await screen.findByRole('img', { name: 'QR code to scan with your authenticator app' }),
    ).toHaveAttribute('src', QR);
    expect(screen.getByText('JBSW Y3DP EHPK 3PXP')).toBeInTheDocument();
    const user = setupUser();
    await user.type(screen.getByLabelText(/^Code from the app/), '123456');
    await user.click(screen.getByRole('button', { name: 'Turn on' }));

    const dialog = await screen.findByRole('dialog', { name: 'Save your recovery codes' });
    const list = within(dialog).getByRole('list', { name: 'Recovery codes' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(10);
    expect(within(list).getByText(CODES[0]!)).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Copy' })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Download .txt' })).toBeInTheDocument();
    const done = within(dialog).getByRole('button', { name: 'Done' });
    expect(done).toBeDisabled();
    await user.click(within(dialog).getByRole('checkbox', { name: 'I have saved them' }));
    await user.click(done);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByText('10 recovery codes left.')).toBeInTheDocument();
    expect(openSealed(calls.find((c) => c.path === 'auth/twoFactor' && c.method === 'POST')!.body)).toEqual({
      enable: true,
      code: '123456',
    });
  });

  it('puts a wrong code on the field', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    settings({
      'POST auth/twoFactor': () =>
        apiError(400, 'bad_request', 'code is not a valid code', [
          { path: 'body.code', message: 'is not a valid code' },
        ]),
    });
    const user = setupUser();
    const input = await screen.findByLabelText(/^Code from the app/);
    await user.type(input, '654321');
    await user.click(screen.getByRole('button', { name: 'Turn on' }));
    await waitFor(() => expect(input).toHaveAccessibleDescription('This is not a valid code'));
  });

  it('makes a new secret', async () => {
    const { calls } = settings({
      'POST auth/refreshTwoFactor': () =>
        json({ ...OFF, otpauthUri: 'otpauth://totp/Latchkey:ada?secret=KRSXG5CTMVRXEZLU&issuer=Latchkey' }),
    });
    await setupUser().click(await screen.findByRole('button', { name: 'Make a new secret' }));
    expect(await screen.findByText('KRSX G5CT MVRX EZLU')).toBeInTheDocument();
    expect(calls.some((c) => c.path === 'auth/refreshTwoFactor')).toBe(true);
  });

  it('turns off with the password and a code', async () => {
    const { calls } = settings({
      'GET auth/twoFactor': () =>
        json({ enabled: true, otpauthUri: null, qrCode: null, recoveryCodesLeft: 2 }),
      'POST auth/twoFactor': () => json({ enabled: false, recoveryCodes: [] }),
    });
    expect(await screen.findByText(/2 recovery codes left\./)).toBeInTheDocument();
    const user = setupUser();
    await user.click(screen.getByRole('button', { name: 'Turn off…' }));
    const form = screen.getByRole('form', { name: 'Turn off two-factor sign-in' });
    await user.type(within(form).getByLabelText(/^Current password/), 'old-password');
    await user.type(within(form).getByLabelText(/^Code/), 'ABCDE-FGHIJ');
    await user.click(within(form).getByRole('button', { name: 'Turn off two-factor sign-in' }));
    expect(await screen.findByText('Two-factor sign-in is off')).toBeInTheDocument();
    expect(openSealed(calls.find((c) => c.path === 'auth/twoFactor' && c.method === 'POST')!.body)).toEqual({
      enable: false,
      password: 'old-password',
      code: 'abcde-fghij',
    });
  });
});

describe('SettingsPage: email and sessions', () => {
  it('asks for a new address (sealed) and says to check the new inbox', async () => {
    const { calls } = settings({
      'POST auth/email': () => json({ message: 'Follow the link' }, 202),
    });
    const user = setupUser();
    expect(await screen.findByText('Verified')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Change address' }));
    const form = screen.getByRole('form', { name: 'Change email' });
    await user.type(within(form).getByLabelText(/^New email/), 'Ada@New.example');
    await user.type(within(form).getByLabelText(/^Current password/), 'my-password');
    await user.click(within(form).getByRole('button', { name: 'Send confirmation link' }));
    expect(await screen.findByText('Check your new inbox')).toBeInTheDocument();
    expect(screen.getByText('ada@new.example')).toBeInTheDocument();
    expect(openSealed(calls.find((c) => c.path === 'auth/email')!.body)).toEqual({
      newEmail: 'Ada@New.example',
      password: 'my-password',
    });
  });

  it('puts a taken address on the field', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    settings({
      'POST auth/email': () => apiError(409, 'conflict', 'An account with this email already exists'),
    });
    const user = setupUser();
    await user.click(await screen.findByRole('button', { name: 'Change address' }));
    const form = screen.getByRole('form', { name: 'Change email' });
    const input = within(form).getByLabelText(/^New email/);
    await user.type(input, 'grace@example.com');
    await user.type(within(form).getByLabelText(/^Current password/), 'my-password');
    await user.click(within(form).getByRole('button', { name: 'Send confirmation link' }));
    await waitFor(() =>
      expect(input).toHaveAccessibleDescription('An account with this email already exists'),
    );
  });

  it('signs out everywhere after a confirmation', async () => {
    const { calls, router } = settings({ 'POST auth/logout': () => json(undefined, 204) });
    const user = setupUser();
    await user.click(await screen.findByRole('button', { name: 'Sign out everywhere' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign out everywhere?' });
    await user.click(within(dialog).getByRole('button', { name: 'Sign out everywhere' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(storage.getAuthToken()).toBeNull();
    expect(calls.some((c) => c.path === 'auth/logout')).toBe(true);
  });

  it('is the basic user’s settings page too, and in the user menu', async () => {
    settings({ 'GET auth': () => json(sessionFixture(['user'])) }, '/user/settingsProfile');
    expect(await screen.findByRole('heading', { level: 1, name: 'Settings' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Two-factor sign-in' })).toBeInTheDocument();
    await setupUser().click(screen.getByRole('button', { name: /Account menu/ }));
    expect(await screen.findByRole('menuitem', { name: 'Settings' })).toHaveAttribute(
      'href',
      '/user/settingsProfile',
    );
  });
});

describe('SettingsPage: portals', () => {
  const own = portalFixture();
  const other = portalFixture({
    _id: 'portal-2',
    name: 'Dockside Offices',
    ownerId: 'user-7',
    current: false,
  });
  const session = sessionFixture(['admin'], {
    memberships: [
      { portal: { _id: own._id, name: own.name }, role: 'admin', status: 'active', owner: true },
      { portal: { _id: other._id, name: other.name }, role: 'user', status: 'active', owner: false },
      { portal: { _id: 'portal-3', name: 'Pending Place' }, role: 'user', status: 'invited', owner: false },
    ],
    portal: own,
  });

  it('lists every membership with its role and state; opens another portal or answers an invitation', async () => {
    storage.setAuthToken(validToken());
    const { calls } = renderApp('/app/settings', {
      'GET auth': () => json(session),
      'GET portal/user/portal/current/portal-2': () =>
        json({ portal: other, role: 'user', status: 'active', viaPlatformRole: false }),
    });
    const list = await screen.findByRole('list', { name: 'Your portals' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringMatching(/Harbor View.*Owner.*active.*Current/),
      expect.stringMatching(/Dockside Offices.*User.*active.*Open/),
      expect.stringMatching(/Pending Place.*User.*invited.*Answer the invitation/),
    ]);
    expect(within(items[2]!).getByRole('link', { name: 'Answer the invitation' })).toHaveAttribute(
      'href',
      '/space/portal-3',
    );

    await setupUser().click(within(list).getByRole('button', { name: 'Open Dockside Offices' }));
    await waitFor(() => expect(storage.getPortal()).toBe('portal-2'));
    expect(calls.some((c) => c.path === 'portal/user/portal/current/portal-2')).toBe(true);
  });
});

describe('SettingsPage: starting a portal of their own', () => {
  it('offers it to a person who owns none, creates it and opens its dashboard', async () => {
    storage.setAuthToken(validToken());
    storage.setPortal('portal-1');
    const session = sessionFixture(['user'], { portalOwned: null });
    const { calls, router } = renderApp('/user/settingsProfile', {
      'GET auth': () => json(session),
      [`POST user/${session.user._id}/portal`]: (call) =>
        json(portalFixture({ _id: 'portal-9', name: (call.body as { name: string }).name }), 201),
    });
    const user = setupUser();
    await user.click(await screen.findByRole('button', { name: 'Start your own portal' }));
    const form = await screen.findByRole('form', { name: 'Start your own portal' });
    await user.click(within(form).getByRole('button', { name: 'Create portal' }));
    expect(await within(form).findByText('Portal name is required')).toBeInTheDocument();
    await user.type(within(form).getByLabelText(/^Portal name/), 'Corner Shop');
    await user.click(within(form).getByRole('button', { name: 'Create portal' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/dashboard'));
    expect(calls.find((c) => c.path === `user/${session.user._id}/portal`)!.body).toEqual({
      name: 'Corner Shop',
      timeZone: expect.any(String),
    });
    // Their own portal needs no override.
    expect(storage.getPortal()).toBeNull();
  });

  it('is not offered to someone who owns a portal', async () => {
    storage.setAuthToken(validToken());
    renderApp('/app/settings', { 'GET auth': () => json(sessionFixture(['admin'])) });
    await screen.findByRole('list', { name: 'Your portals' });
    expect(screen.queryByRole('button', { name: 'Start your own portal' })).not.toBeInTheDocument();
  });
});

describe('SettingsPage: the portal setup screens, and About in the account menu', () => {
  it('links an admin of a portal to API keys, webhooks and desk readers, and shows About in the account menu', async () => {
    storage.setAuthToken(validToken());
    renderApp('/app/settings', { 'GET auth': () => json(sessionFixture(['admin'])) });
    expect(await screen.findByRole('link', { name: 'Manage API keys' })).toHaveAttribute(
      'href',
      '/app/settings/api-keys',
    );
    expect(
      screen.getByRole('link', { name: 'Manage webhook endpoints and their delivery logs' }),
    ).toHaveAttribute('href', '/app/settings/webhooks');
    expect(screen.getByRole('link', { name: 'Manage desk readers' })).toHaveAttribute('href', '/app/readers');
    await setupUser().click(screen.getByRole('button', { name: /^Account menu for/ }));
    expect(await screen.findByRole('menuitem', { name: 'About Latchkey' })).toHaveAttribute(
      'href',
      '/app/about',
    );
  });

  it('shows a basic user none of them', async () => {
    storage.setAuthToken(validToken());
    renderApp('/user/settingsProfile', { 'GET auth': () => json(sessionFixture(['user'])) });
    expect(await screen.findByLabelText('First name')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Manage desk readers' })).not.toBeInTheDocument();
    await setupUser().click(screen.getByRole('button', { name: /^Account menu for/ }));
    expect(await screen.findByRole('menuitem', { name: 'Help & support' })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'About Latchkey' })).not.toBeInTheDocument();
  });
});
