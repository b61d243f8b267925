import type { DeviceInvite } from '@latchkey/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { storage } from '@/lib/storage';
import { apiError, json, type MockHandler } from '@/testing/fetch-mock';
import { deviceFixture, sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';
import { setupUser } from '@/testing/user';

const invite = (overrides: Partial<DeviceInvite> = {}): DeviceInvite => ({
  _id: 'invite-1',
  deviceId: 'device-1',
  name: 'Sam Plumber',
  email: 'sam@example.com',
  phone: '+1 555 0100',
  days: [1, 2, 3, 4, 5],
  start: '09:00',
  end: '17:00',
  startDate: '2026-11-23',
  endDate: '2026-11-27',
  code: '482913',
  state: 'active',
  lastSentAt: null,
  sentCount: 0,
  createdAt: '2026-11-20T10:00:00.000Z',
  ...overrides,
});

function setup(routes: Record<string, MockHandler> = {}) {
  storage.setAuthToken(validToken());
  return renderApp('/app/device/device-1?tab=guests', {
    'GET auth': () => json(sessionFixture(['admin'])),
    'GET portal/device/device-1': () => json(deviceFixture()),
    'GET portal/device/device-1/stayGuests': () => json([]),
    ...routes,
  });
}

describe('DeviceGuestsTab', () => {
  it('lists guests with their days and times in words, dates, state, masked code and last sent', async () => {
    setup({
      'GET device/device-1/invite': () =>
        json([
          invite({ lastSentAt: '2026-11-20T10:00:00.000Z', sentCount: 2 }),
          invite({
            _id: 'invite-2',
            name: 'Night guard',
            email: null,
            phone: null,
            days: [0, 6],
            start: '22:00',
            end: '06:00',
            startDate: '2026-12-01',
            endDate: '2026-12-01',
            code: '7391',
            state: 'upcoming',
          }),
        ]),
    });
    const list = await screen.findByRole('list', { name: 'Guests' });
    const [sam, guard] = within(list)
      .getAllByRole('listitem')
      .filter((li) => li.textContent);
    expect(within(sam!).getByText('Mon–Fri 09:00–17:00')).toBeInTheDocument();
    expect(within(sam!).getByText('Nov 23, 2026 – Nov 27, 2026')).toBeInTheDocument();
    expect(within(sam!).getByText('Active')).toBeInTheDocument();
    expect(within(sam!).getByText('sam@example.com · +1 555 0100')).toBeInTheDocument();
    expect(within(sam!).getByText(/Sent 2 times, last/)).toBeInTheDocument();
    expect(within(guard!).getByText('Sat, Sun 22:00–06:00 (overnight)')).toBeInTheDocument();
    expect(within(guard!).getByText('On Dec 1, 2026')).toBeInTheDocument();
    expect(within(guard!).getByText('Upcoming')).toBeInTheDocument();
    expect(within(guard!).getByText('Not sent')).toBeInTheDocument();

    // The code stays hidden until asked for.
    expect(within(sam!).queryByText('482913')).not.toBeInTheDocument();
    const reveal = within(sam!).getByRole('button', { name: 'Show the code of Sam Plumber' });
    await setupUser().click(reveal);
    expect(reveal).toHaveAttribute('aria-pressed', 'true');
    expect(within(sam!).getByText('482913')).toBeInTheDocument();

    // Without an email there is nothing to resend; the button says why.
    const resend = within(guard!).getByRole('button', { name: 'Resend the invitation to Night guard' });
    expect(resend).toHaveAttribute('aria-disabled', 'true');
    expect(resend).toHaveAccessibleDescription('Add an email to send the invitation');
  });

  it('says when there are no guests', async () => {
    setup({ 'GET device/device-1/invite': () => json([]) });
    expect(await screen.findByText('No guests yet')).toBeInTheDocument();
  });

  it("lists the guests whose stays open the lock, with their stay's dates and a link to it", async () => {
    setup({
      'GET device/device-1/invite': () => json([]),
      'GET portal/device/device-1/stayGuests': () =>
        json([
          {
            stayId: 'stay-1',
            listingId: 'listing-1',
            listingTitle: 'Park flat',
            guestName: 'Marco Visitor',
            startDate: '2026-12-01',
            endDate: '2026-12-05',
            validFrom: '2026-12-01T14:00:00.000Z',
            validUntil: '2026-12-05T10:00:00.000Z',
            credentials: ['code', 'qr'],
          },
        ]),
    });
    const list = await screen.findByRole('list', { name: 'Stay guests' });
    expect(within(list).getByRole('link', { name: 'Marco Visitor' })).toHaveAttribute(
      'href',
      '/app/listing/listing-1/request/stay-1',
    );
    expect(list).toHaveTextContent('Stay at Park flat, Dec 1, 2026 – Dec 5, 2026');
    expect(list).toHaveTextContent('CodeQR code');
    // Stays give guests access: the tab no longer says there are none.
    expect(screen.queryByText('No guests yet')).not.toBeInTheDocument();
  });

  it('shows an error with a way to try again', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    setup({ 'GET device/device-1/invite': () => apiError(500, 'internal', 'Boom') });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Could not load the guests');
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('invites a guest, showing a server rule on the field it concerns', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    let invites: DeviceInvite[] = [];
    let attempts = 0;
    const { calls } = setup({
      'GET device/device-1/invite': () => json(invites),
      'POST device/device-1/invite': (call) => {
        attempts += 1;
        if (attempts === 1) {
          return apiError(400, 'validation', 'Invalid request', [
            { path: 'body.code', message: 'must be 4 to 8 digits for a Keypad code lock' },
          ]);
        }
        const body = call.body as DeviceInvite;
        invites = [invite({ ...body, _id: 'invite-9', code: body.code || '555123', state: 'upcoming' })];
        return json(invites[0], 201);
      },
    });
    const user = setupUser();
    await user.click(await screen.findByRole('button', { name: 'Invite a guest' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invite a guest to Front door' });

    // The shared schema checks the form before anything is sent.
    await user.click(within(dialog).getByRole('button', { name: 'Invite guest' }));
    expect(await within(dialog).findByText('Name is required')).toBeInTheDocument();
    // Only the field says so: its placeholder is not an error (global.css keeps it grey).
    expect(within(dialog).getByLabelText(/^Name/)).toHaveAttribute('data-error', 'true');
    // Nothing to send to yet: the box waits for an address.
    const send = within(dialog).getByRole('checkbox', { name: 'Email the code to the guest' });
    expect(send).toBeDisabled();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    await user.type(within(dialog).getByLabelText(/^Name/), 'Sam Plumber');
    await user.type(within(dialog).getByRole('textbox', { name: /^Email/ }), 'sam@example.com');
    // With an address, the guest is emailed unless the box is cleared.
    expect(send).toBeEnabled();
    expect(send).toBeChecked();
    // Weekends too, and a later end date.
    await user.click(within(dialog).getByRole('checkbox', { name: 'Saturday' }));
    fireEvent.change(within(dialog).getByLabelText(/^First day/), { target: { value: '2026-12-01' } });
    fireEvent.change(within(dialog).getByLabelText(/^Last day/), { target: { value: '2026-12-24' } });
    await user.type(within(dialog).getByLabelText(/^Code/), '12a3');
    expect(within(dialog).getByLabelText(/^Code/)).toHaveValue('123');
    await user.click(within(dialog).getByRole('button', { name: 'Invite guest' }));

    expect(
      await within(dialog).findByText('Code must be 4 to 8 digits for a Keypad code lock'),
    ).toBeInTheDocument();
    expect(within(dialog).getByLabelText(/^Code/)).toHaveAttribute('aria-invalid', 'true');

    await user.clear(within(dialog).getByLabelText(/^Code/));
    await user.click(within(dialog).getByRole('button', { name: 'Invite guest' }));
    expect(await screen.findByText('The code was emailed to sam@example.com.')).toBeInTheDocument();
    const posted = calls.filter((c) => c.method === 'POST' && c.path === 'device/device-1/invite');
    expect(posted.at(-1)!.body).toEqual({
      name: 'Sam Plumber',
      email: 'sam@example.com',
      phone: '',
      days: [1, 2, 3, 4, 5, 6],
      start: '09:00',
      end: '17:00',
      startDate: '2026-12-01',
      endDate: '2026-12-24',
      send: true,
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByText('Mon–Sat 09:00–17:00')).toBeInTheDocument();
  }, 40_000);

  it('edits an invite, keeping the code when none is typed', async () => {
    const { calls } = setup({
      'GET device/device-1/invite': () => json([invite()]),
      'POST device/device-1/invite/invite-1': (call) => json(invite(call.body as Partial<DeviceInvite>)),
    });
    const user = setupUser();
    await user.click(await screen.findByRole('button', { name: 'Edit the invite of Sam Plumber' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit the invite of Sam Plumber' });
    expect(within(dialog).getByLabelText(/^Name/)).toHaveValue('Sam Plumber');
    expect(within(dialog).getByRole('checkbox', { name: 'Friday' })).toBeChecked();
    expect(within(dialog).getByRole('checkbox', { name: 'Sunday' })).not.toBeChecked();
    await user.click(within(dialog).getByRole('switch', { name: 'All day' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save invite' }));
    expect(await screen.findByText('Invite saved')).toBeInTheDocument();
    const body = calls.find((c) => c.method === 'POST')!.body as Record<string, unknown>;
    expect(body).toMatchObject({ start: '00:00', end: '24:00', startDate: '2026-11-23' });
    expect(body).not.toHaveProperty('code');
  });

  it('deletes an invite after confirming, and resends an invitation', async () => {
    let invites = [invite()];
    const { calls } = setup({
      'GET device/device-1/invite': () => json(invites),
      'DELETE device/device-1/invite/invite-1': () => {
        invites = [];
        return json(undefined, 204);
      },
      'GET device/device-1/invite/invite-1/resend': () =>
        json(invite({ lastSentAt: new Date().toISOString(), sentCount: 1 })),
    });
    const user = setupUser();
    await user.click(await screen.findByRole('button', { name: 'Resend the invitation to Sam Plumber' }));
    expect(await screen.findByText('Invitation sent')).toBeInTheDocument();
    expect(calls.some((c) => c.path === 'device/device-1/invite/invite-1/resend')).toBe(true);

    await user.click(screen.getByRole('button', { name: 'Delete the invite of Sam Plumber' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete the guest invite?' });
    expect(dialog).toHaveTextContent("Sam Plumber's code stops opening Front door at once.");
    // Cancel first: nothing is deleted.
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Delete the invite of Sam Plumber' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Delete the guest invite?' })).getByRole('button', {
        name: 'Delete invite',
      }),
    );
    expect(await screen.findByText('No guests yet')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'DELETE' && c.path === 'device/device-1/invite/invite-1')).toBe(
      true,
    );
  });
});
