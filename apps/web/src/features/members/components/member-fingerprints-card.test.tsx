import type { Fingerprint } from '@latchkey/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { storage } from '@/lib/storage';
import { apiError, json, type MockHandler } from '@/testing/fetch-mock';
import { memberDeviceFixture, memberFixture, sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';
import { setupUser } from '@/testing/user';

const grace = { _id: 'user-2', email: 'grace@example.com', name: 'Grace Hopper' };

const thumb: Fingerprint = {
  _id: 'fp-1',
  name: '',
  finger: 'right-thumb',
  templateId: '17',
  holder: grace,
  device: { _id: 'device-2', name: 'Back gate' },
  validFrom: null,
  validUntil: null,
  createdAt: '2026-01-01T00:00:00.000Z',
};

function setup(routes: Record<string, MockHandler>) {
  storage.setAuthToken(validToken());
  const member = memberFixture();
  return renderApp(`/app/user/${member._id}`, {
    'GET auth': () => json(sessionFixture(['admin'])),
    [`GET portal/user/${member._id}`]: () => json({ member, accessCode: null }),
    [`GET user/${member._id}/devices`]: () =>
      json([memberDeviceFixture(), memberDeviceFixture({ _id: 'device-2', name: 'Back gate' })]),
    [`GET user/${member._id}/rfids`]: () => json([]),
    [`GET user/${member._id}/keys`]: () => json([]),
    'GET portal/keys': () => json({ items: [], total: 0 }),
    'GET portal/devices': () => json({ items: [], total: 0 }),
    ...routes,
  });
}

async function choose(dialog: HTMLElement, label: string, option: string) {
  const user = setupUser();
  await user.click(within(dialog).getByLabelText(label, { exact: false, selector: 'input' }));
  await user.click(await screen.findByRole('option', { name: option }));
}

describe('MemberFingerprintsCard', () => {
  it('lists fingerprints, each linking to its page', async () => {
    setup({
      'GET user/user-2/fingerprints': () =>
        json([thumb, { ...thumb, _id: 'fp-2', name: 'Spare', finger: 'left-index' }]),
    });
    const list = await screen.findByRole('list', { name: 'Their fingerprints' });
    expect(within(list).getByRole('link', { name: 'Right thumb finger' })).toHaveAttribute(
      'href',
      '/app/fingerprint/fp-1',
    );
    expect(within(list).getByText('at Back gate · template 17')).toBeInTheDocument();
    expect(within(list).getByRole('link', { name: 'Spare' })).toHaveAttribute(
      'href',
      '/app/fingerprint/fp-2',
    );
    expect(within(list).getByText('Left index · at Back gate · template 17')).toBeInTheDocument();
  });

  it('shows a failed load with a retry', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    let fail = true;
    setup({
      'GET user/user-2/fingerprints': () => {
        if (fail) {
          fail = false;
          return apiError(403, 'forbidden', 'Not allowed here');
        }
        return json([]);
      },
    });
    const card = await screen.findByRole('region', { name: 'Fingerprints' });
    const alert = await within(card).findByRole('alert');
    expect(alert).toHaveTextContent('Could not load the fingerprints');
    await setupUser().click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await within(card).findByText('No fingerprints yet')).toBeInTheDocument();
  });

  it('records a fingerprint, showing a used template id (409) and a refused lock (400) on their fields', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    let fingerprints: Fingerprint[] = [];
    const bodies: unknown[] = [];
    setup({
      'GET user/user-2/fingerprints': () => json(fingerprints),
      'POST portal/fingerprint': (call) => {
        bodies.push(call.body);
        if (bodies.length === 1)
          return apiError(409, 'conflict', 'This template id is already enrolled at this lock');
        if (bodies.length === 2) {
          const message = 'grace@example.com has no access to Back gate; give them access first';
          return apiError(400, 'bad_request', message, [{ path: 'body.userId', message }]);
        }
        fingerprints = [thumb];
        return json(thumb, 201);
      },
    });
    const user = setupUser();
    const card = await screen.findByRole('region', { name: 'Fingerprints' });
    expect(await within(card).findByText('No fingerprints yet')).toBeInTheDocument();
    await user.click(within(card).getByRole('button', { name: 'Record fingerprint' }));
    const dialog = await screen.findByRole('dialog', { name: 'Record a fingerprint for Grace Hopper' });
    await user.click(within(dialog).getByRole('button', { name: 'Record fingerprint' }));
    expect(await within(dialog).findByText('Choose the lock the finger was enrolled at')).toBeInTheDocument();
    expect(within(dialog).getByText('Choose the finger')).toBeInTheDocument();
    expect(within(dialog).getByText('Enter the template id the lock gave the finger')).toBeInTheDocument();

    await choose(dialog, 'Lock', 'Back gate');
    await choose(dialog, 'Finger', 'Right thumb');
    const template = within(dialog).getByRole('textbox', { name: /^Template id/ });
    await user.type(template, '17');
    await user.click(within(dialog).getByRole('button', { name: 'Record fingerprint' }));
    await waitFor(() =>
      expect(template).toHaveAccessibleDescription(
        expect.stringContaining('This template id is already enrolled at this lock'),
      ),
    );
    expect(bodies[0]).toEqual({
      deviceId: 'device-2',
      userId: 'user-2',
      finger: 'right-thumb',
      templateId: '17',
      name: '',
      validFrom: null,
      validUntil: null,
    });

    await user.click(within(dialog).getByRole('button', { name: 'Record fingerprint' }));
    const lock = within(dialog).getByLabelText('Lock', { exact: false, selector: 'input' });
    await waitFor(() =>
      expect(lock).toHaveAccessibleDescription(
        expect.stringContaining('grace@example.com has no access to Back gate; give them access first'),
      ),
    );

    await user.click(within(dialog).getByRole('button', { name: 'Record fingerprint' }));
    const list = await within(card).findByRole('list', { name: 'Their fingerprints' });
    expect(within(list).getByRole('link', { name: 'Right thumb finger' })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  }, 20_000);
});
