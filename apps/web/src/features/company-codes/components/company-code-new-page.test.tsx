import type { CompanyCode } from '@latchkey/shared';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { storage } from '@/lib/storage';
import { apiError, json, type MockHandler } from '@/testing/fetch-mock';
import { deviceFixture, sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';
import { setupUser } from '@/testing/user';
import { setDateTime } from '@/testing/date-time';

// The portal (sessionFixture) is in America/New_York; its keypad locks here are in Rome, and the
// browser running the test in whatever zone the machine has: the code's times are the locks'.
const keypadLocks = {
  items: [
    deviceFixture({ _id: 'd1', name: 'Front door', model: 'generic-codelock', timeZone: 'Europe/Rome' }),
    deviceFixture({ _id: 'd2', name: 'Back gate', model: 'latchkey-sim', timeZone: 'Europe/Rome' }),
    // A lock without a keypad takes no code: its zone does not count.
    deviceFixture({ _id: 'd3', name: 'Garage', model: 'generic-nokeypad', timeZone: 'Asia/Tokyo' }),
  ],
  total: 3,
};

const saved: CompanyCode = {
  _id: 'code-1',
  name: 'Cleaning crew',
  code: '482915',
  validFrom: null,
  validUntil: null,
  createdAt: '2026-01-01T00:00:00.000Z',
};

function setup(routes: Record<string, MockHandler> = {}) {
  storage.setAuthToken(validToken());
  return renderApp('/app/access-code/new', {
    'GET auth': () => json(sessionFixture(['admin'])),
    'GET portal/code/company': () => json([saved]),
    'GET portal/devices': () => json(keypadLocks),
    ...routes,
  });
}

describe('CompanyCodeNewPage', () => {
  it('says what is wrong before sending anything', async () => {
    const { calls } = setup();
    const user = setupUser();
    await screen.findByRole('heading', { level: 1, name: 'New company code' });
    const code = screen.getByRole('textbox', { name: /^Code/ });
    // Only digits go in.
    await user.type(code, '12a');
    expect(code).toHaveValue('12');
    setDateTime('Valid from', '2030-01-10T09:00');
    setDateTime('Valid until', '2030-01-10T08:00');
    await user.click(screen.getByRole('button', { name: 'Add company code' }));
    expect(await screen.findByText('Name is required')).toBeInTheDocument();
    expect(screen.getByText('Code must be 4 to 12 digits')).toBeInTheDocument();
    expect(screen.getByText('Valid until must be after valid from')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('shows the rule the server refused on the code field, then saves and goes back to the list', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const bodies: unknown[] = [];
    const { router } = setup({
      'POST portal/code/company': (call) => {
        bodies.push(call.body);
        if (bodies.length === 1) {
          return apiError(
            400,
            'bad_request',
            'code is already used by someone else in this portal; choose another',
            [
              {
                path: 'body.code',
                message: 'is already used by someone else in this portal; choose another',
              },
            ],
          );
        }
        return json(saved, 201);
      },
    });
    const user = setupUser();
    await user.type(await screen.findByRole('textbox', { name: /^Name/ }), 'Cleaning crew');
    // The fields say whose clock they are on once the keypad locks are known.
    expect(
      await screen.findAllByText("Optional, on the locks' clock (Europe/Rome).", { exact: false }),
    ).toHaveLength(2);
    const code = screen.getByRole('textbox', { name: /^Code/ });
    await user.type(code, '482915');
    setDateTime('Valid from', '2030-01-10T09:00');
    await user.click(screen.getByRole('button', { name: 'Add company code' }));
    await waitFor(() =>
      expect(code).toHaveAccessibleDescription(
        expect.stringContaining('Code is already used by someone else in this portal; choose another'),
      ),
    );
    // 09:00 on the keypads' clock in Rome (UTC+1 in January) is 08:00 UTC.
    expect(bodies[0]).toEqual({
      name: 'Cleaning crew',
      code: '482915',
      validFrom: '2030-01-10T08:00:00.000Z',
      validUntil: null,
    });

    await user.click(screen.getByRole('button', { name: 'Add company code' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/access-codes'));
    expect(await screen.findByText('Company code added')).toBeInTheDocument();
  });
});
