import type { Fingerprint, ScopedUser } from '@latchkey/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { storage } from '@/lib/storage';
import { apiError, json, type MockHandler } from '@/testing/fetch-mock';
import { memberFixture, sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';
import { setupUser } from '@/testing/user';
import { dateTimeValue, setDateTime } from '@/testing/date-time';

const grace = { _id: 'user-2', email: 'grace@example.com', name: 'Grace Hopper' };
const alan = { _id: 'user-3', email: 'alan@example.com', name: 'Alan Turing' };

function fingerprintFixture(overrides: Partial<Fingerprint> = {}): Fingerprint {
  return {
    _id: 'fp-1',
    name: '',
    finger: 'right-index',
    templateId: '17',
    holder: grace,
    device: { _id: 'device-1', name: 'Front door' },
    validFrom: null,
    validUntil: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

const scoped: ScopedUser[] = [
  { ...grace, role: 'user', status: 'active' },
  { ...alan, role: 'user', status: 'active' },
];

function setup(routes: Record<string, MockHandler> = {}, initial = fingerprintFixture()) {
  storage.setAuthToken(validToken());
  let fingerprint = initial;
  const view = renderApp('/app/fingerprint/fp-1', {
    'GET auth': () => json(sessionFixture(['admin'])),
    'GET portal/fingerprint/fp-1': () => json(fingerprint),
    'GET portal/scopedUsers': () => json(scoped),
    ...routes,
  });
  return { ...view, setFingerprint: (next: Fingerprint) => (fingerprint = next) };
}

describe('FingerprintPage', () => {
  it('shows the holder, the lock, the finger and the template', async () => {
    setup();
    expect(await screen.findByRole('heading', { level: 1, name: 'Right index finger' })).toBeInTheDocument();
    const facts = screen.getByRole('region', { name: 'Fingerprint' });
    expect(within(facts).getByRole('link', { name: 'Grace Hopper' })).toHaveAttribute(
      'href',
      '/app/user/user-2',
    );
    expect(within(facts).getByRole('link', { name: 'Front door' })).toHaveAttribute(
      'href',
      '/app/device/device-1',
    );
    expect(within(facts).getByText('Right index')).toBeInTheDocument();
    expect(within(facts).getByText('17')).toBeInTheDocument();
    expect(within(facts).getByText('Always')).toBeInTheDocument();
    expect(screen.getByText('Active')).toBeInTheDocument();
    // Back leads to the holder.
    expect(screen.getAllByRole('link', { name: 'Grace Hopper' })[0]).toHaveAttribute(
      'href',
      '/app/user/user-2',
    );
  });

  it('says so when the fingerprint does not exist', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    setup({ 'GET portal/fingerprint/fp-1': () => apiError(404, 'not_found', 'Fingerprint not found') });
    expect(
      await screen.findByRole('heading', { name: "This fingerprint doesn't exist" }),
    ).toBeInTheDocument();
  });

  it('shows a failed load with a retry', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    let fail = true;
    setup({
      'GET portal/fingerprint/fp-1': () => {
        if (fail) {
          fail = false;
          return apiError(403, 'forbidden', 'Not allowed here');
        }
        return json(fingerprintFixture());
      },
    });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Could not load the fingerprint');
    await setupUser().click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Right index finger' })).toBeInTheDocument();
  });

  it('saves the finger and label, showing a 400 detail on its field', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const bodies: unknown[] = [];
    const { setFingerprint } = setup({
      'POST portal/fingerprint/fp-1': (call) => {
        bodies.push(call.body);
        if (bodies.length === 1)
          return apiError(400, 'bad_request', 'name is not allowed', [
            { path: 'body.name', message: 'is not allowed' },
          ]);
        const saved = fingerprintFixture({ finger: 'left-thumb', name: 'Backup' });
        setFingerprint(saved);
        return json(saved);
      },
    });
    const user = setupUser();
    const form = await screen.findByRole('form', { name: 'Edit fingerprint' });
    await user.click(within(form).getByLabelText('Finger', { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: 'Left thumb' }));
    const label = within(form).getByRole('textbox', { name: 'Label' });
    await user.type(label, 'Backup');
    await user.click(within(form).getByRole('button', { name: 'Save changes' }));
    await waitFor(() =>
      expect(label).toHaveAccessibleDescription(expect.stringContaining('Label is not allowed')),
    );
    expect(bodies[0]).toEqual({ finger: 'left-thumb', name: 'Backup', validFrom: null, validUntil: null });
    await user.click(within(form).getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Backup' })).toBeInTheDocument();
  });

  it('links it to another person, showing why the server refused on the picker', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    let refuse = true;
    const { setFingerprint } = setup({
      'PUT portal/fingerprint/fp-1/user/user-3': () => {
        if (refuse) {
          refuse = false;
          const message = 'alan@example.com has no access to Front door; give them access first';
          return apiError(400, 'bad_request', message, [{ path: 'body.userId', message }]);
        }
        const saved = fingerprintFixture({ holder: alan });
        setFingerprint(saved);
        return json(saved);
      },
    });
    const user = setupUser();
    const card = await screen.findByRole('region', { name: 'Link to another person' });
    const picker = within(card).getByLabelText('Person', { selector: 'input' });
    await user.click(picker);
    expect(screen.queryByRole('option', { name: /Grace Hopper/ })).toBeNull();
    await user.click(await screen.findByRole('option', { name: /Alan Turing/ }));
    await user.click(within(card).getByRole('button', { name: 'Link' }));
    await waitFor(() =>
      expect(picker).toHaveAccessibleDescription(
        expect.stringContaining('alan@example.com has no access to Front door; give them access first'),
      ),
    );
    await user.click(within(card).getByRole('button', { name: 'Link' }));
    const facts = screen.getByRole('region', { name: 'Fingerprint' });
    expect(await within(facts).findByRole('link', { name: 'Alan Turing' })).toBeInTheDocument();
  });

  it('deletes only after confirming, then shows the holder', async () => {
    const { calls, router } = setup({
      'DELETE portal/fingerprint/fp-1': () => json(undefined, 204),
      'GET portal/user/user-2': () => json({ member: memberFixture(), accessCode: null }),
    });
    const user = setupUser();
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    let dialog = await screen.findByRole('dialog', { name: 'Delete Right index finger?' });
    expect(dialog).toHaveTextContent('Front door stops accepting this finger at once.');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Delete' }));
    dialog = await screen.findByRole('dialog', { name: 'Delete Right index finger?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete fingerprint' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/user/user-2'));
    expect(calls.filter((c) => c.method === 'DELETE' && c.path === 'portal/fingerprint/fp-1')).toHaveLength(
      1,
    );
  }, 20_000);

  it("shows and takes its validity on its lock's clock, the stored instant in UTC", async () => {
    // The portal (sessionFixture) is in America/New_York, the lock in Rome, the browser anywhere.
    const bodies: unknown[] = [];
    const rome = fingerprintFixture({
      device: { _id: 'device-1', name: 'Front door', timeZone: 'Europe/Rome' },
      validUntil: '2026-12-17T13:30:00.000Z',
    });
    setup(
      {
        'POST portal/fingerprint/fp-1': (call) => {
          bodies.push(call.body);
          return json(rome);
        },
      },
      rome,
    );
    const facts = await screen.findByRole('region', { name: 'Fingerprint' });
    expect(within(facts).getByText('Until Dec 17, 2026, 14:30 Europe/Rome')).toBeInTheDocument();
    expect(within(facts).getByText(/Times on the lock's clock \(Europe\/Rome\)/)).toBeInTheDocument();
    const form = screen.getByRole('form', { name: 'Edit fingerprint' });
    expect(dateTimeValue('Valid until', form)).toBe('2026-12-17T14:30');
    // Rome is on summer time (UTC+2) on Jul 1: 09:00 there is 07:00 UTC.
    setDateTime('Valid from', '2026-07-01T09:00', form);
    await setupUser().click(within(form).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]).toMatchObject({
      validFrom: '2026-07-01T07:00:00.000Z',
      validUntil: '2026-12-17T13:30:00.000Z',
    });
  });
});
