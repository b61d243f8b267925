import type { LockoutRecord } from '@latchkey/shared';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { storage } from '@/lib/storage';
import { apiError, json, type MockHandler, type RecordedCall } from '@/testing/fetch-mock';
import { deviceFixture, sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';
import { setupUser } from '@/testing/user';
import { dateTimeFields, dateTimeValue, setDateTime } from '@/testing/date-time';

const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?(Z|[+-]\d{2}:\d{2})$/;

function record(overrides: Partial<LockoutRecord> = {}): LockoutRecord {
  return {
    _id: 'lockout-1',
    name: 'Floor works',
    // 08:00–17:00 on the lock's clock (Rome, UTC+1 in January).
    from: '2030-01-10T07:00:00.000Z',
    until: '2030-01-10T16:00:00.000Z',
    exemptAdmins: false,
    devices: [{ _id: 'device-1', name: 'Front door', timeZone: 'Europe/Rome' }],
    active: false,
    createdAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

function setup(path: string, routes: Record<string, MockHandler> = {}) {
  storage.setAuthToken(validToken());
  return renderApp(path, {
    'GET auth': () => json(sessionFixture(['admin'])),
    'GET portal/devices': () =>
      json({
        items: [
          deviceFixture({ timeZone: 'Europe/Rome' }),
          deviceFixture({ _id: 'device-2', name: 'Back gate', timeZone: 'Asia/Tokyo' }),
        ],
        total: 2,
      }),
    'GET portal/lockout/lockout-1': () => json(record()),
    ...routes,
  });
}

async function chooseLock(name: string) {
  const user = setupUser();
  await user.click(screen.getByLabelText(/^Locks/, { selector: 'input' }));
  await user.click(await screen.findByRole('option', { name }));
}

describe('LockoutEditPage', () => {
  it('says what is missing before sending anything', async () => {
    const { calls } = setup('/app/lockout/edit/new');
    const user = setupUser();
    await screen.findByRole('heading', { level: 1, name: 'New lockout' });
    setDateTime('Starts', '');
    await user.click(screen.getByRole('button', { name: 'Create lockout' }));
    expect(await screen.findByText('Name is required')).toBeInTheDocument();
    expect(screen.getByText('Choose when the lockout starts')).toBeInTheDocument();
    expect(screen.getByText('Choose when it ends, or switch on "No end"')).toBeInTheDocument();
    expect(screen.getByText('Choose at least one lock')).toBeInTheDocument();

    setDateTime('Starts', '2030-01-10T09:00');
    setDateTime('Ends', '2030-01-10T08:00');
    await user.click(screen.getByRole('button', { name: 'Create lockout' }));
    expect(await screen.findByText('Ends must be after it starts')).toBeInTheDocument();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
  });

  it('reads the times on the chosen lock’s clock, and on the portal’s when the locks span zones', async () => {
    let sent: RecordedCall | undefined;
    const { router } = setup('/app/lockout/edit/new', {
      'POST portal/lockout': (call) => {
        sent = call;
        return json(record({ _id: 'lockout-9', name: 'Audit day' }), 201);
      },
      'GET portal/lockout/lockout-9': () => json(record({ _id: 'lockout-9', name: 'Audit day' })),
    });
    const user = setupUser();
    await user.type(await screen.findByRole('textbox', { name: /^Name/ }), 'Audit day');
    setDateTime('Starts', '2030-01-10T09:00');
    setDateTime('Ends', '2030-01-10T18:30');
    await user.click(screen.getByRole('switch', { name: /Let admins through/ }));
    // No lock chosen yet: the portal's clock (New York in the fixtures).
    expect(screen.getAllByText("On the portal's clock (America/New_York).").length).toBeGreaterThan(0);
    await chooseLock('Back gate');
    expect(screen.getAllByText("On the lock's clock (Asia/Tokyo).")).toHaveLength(2);
    await user.click(screen.getByRole('button', { name: 'Create lockout' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/app/lockout/lockout-9'));
    const body = sent?.body as { from: string; until: string };
    expect(body).toMatchObject({ name: 'Audit day', exemptAdmins: true, deviceIds: ['device-2'] });
    expect(body.from).toMatch(ISO_WITH_OFFSET);
    expect(body.until).toMatch(ISO_WITH_OFFSET);
    // 09:00 and 18:30 in Tokyo (UTC+9).
    expect(new Date(body.from).toISOString()).toBe('2030-01-10T00:00:00.000Z');
    expect(new Date(body.until).toISOString()).toBe('2030-01-10T09:30:00.000Z');
  });

  it('falls back to the portal’s clock, and says why, when the locks are in several zones', async () => {
    setup('/app/lockout/edit/new?locks=device-1,device-2');
    await screen.findByRole('heading', { level: 1, name: 'New lockout' });
    expect(
      await screen.findByText(/Its locks are in 2 time zones \(Asia\/Tokyo, Europe\/Rome\)/),
    ).toBeInTheDocument();
    expect(screen.getAllByText("On the portal's clock (America/New_York).")).toHaveLength(2);
  });

  it('sends until: null for "No end" and shows the server’s 400 on the field', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const bodies: unknown[] = [];
    let refuse = true;
    const { router } = setup('/app/lockout/edit/lockout-1', {
      'POST portal/lockout/lockout-1': (call) => {
        bodies.push(call.body);
        if (refuse) {
          refuse = false;
          return apiError(400, 'bad_request', 'deviceIds names a lock outside this portal', [
            { path: 'body.deviceIds', message: 'names a lock outside this portal' },
          ]);
        }
        return json(record({ until: null }));
      },
    });
    const user = setupUser();
    expect(await screen.findByRole('heading', { level: 1, name: 'Edit Floor works' })).toBeInTheDocument();
    // The saved values are shown on the lock's clock; the lock is chosen.
    expect(dateTimeValue('Starts')).toBe('2030-01-10T08:00');
    expect(screen.getAllByText("On the lock's clock (Europe/Rome).")).toHaveLength(2);
    await user.click(screen.getByRole('switch', { name: 'No end' }));
    expect(dateTimeFields('Ends').date).toBeDisabled();
    expect(dateTimeFields('Ends').time).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Save lockout' }));
    expect(await screen.findByText('Locks names a lock outside this portal')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Save lockout' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/lockout/lockout-1'));
    expect(bodies).toHaveLength(2);
    expect(bodies[1]).toMatchObject({ name: 'Floor works', until: null, deviceIds: ['device-1'] });
  });
});
