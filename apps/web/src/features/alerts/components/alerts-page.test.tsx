import type { AlertRule, Notification } from '@latchkey/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { storage } from '@/lib/storage';
import { apiError, json, type MockHandler } from '@/testing/fetch-mock';
import { deviceFixture, sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';
import { setupUser } from '@/testing/user';

const tamperRule: AlertRule = {
  _id: 'rule-1',
  kind: 'tamper',
  name: 'Tamper alarm',
  enabled: true,
  email: true,
  devices: [],
  minutes: null,
  count: null,
  user: null,
  createdAt: '2026-11-01T00:00:00.000Z',
};
const offlineRule: AlertRule = {
  ...tamperRule,
  _id: 'rule-2',
  kind: 'offline',
  name: 'Gate quiet',
  email: false,
  minutes: 30,
  devices: [{ _id: 'device-1', name: 'Front door' }],
};

const alert = (overrides: Partial<Notification> = {}): Notification => ({
  _id: 'n-1',
  kind: 'tamper',
  ruleId: 'rule-1',
  device: { _id: 'device-1', name: 'Front door' },
  subject: null,
  title: 'Tamper alarm at Front door',
  message: 'The lock reported that someone forced it.',
  createdAt: '2026-11-24T10:00:00.000Z',
  unread: true,
  ...overrides,
});

function setup(routes: Record<string, MockHandler> = {}) {
  storage.setAuthToken(validToken());
  return renderApp('/app/notificationAndAlert', {
    'GET auth': () => json(sessionFixture(['admin'])),
    'GET portal/alerts/rules': () => json([tamperRule, offlineRule]),
    'GET portal/notifications': () =>
      json({ items: [alert(), alert({ _id: 'n-2', title: 'Older', unread: false })], total: 2, unread: 1 }),
    'GET portal/devices': () => json({ items: [deviceFixture()], total: 1 }),
    ...routes,
  });
}

describe('AlertsPage', () => {
  it('lists the alerts with the unread ones marked, and marks them read', async () => {
    let unread = 1;
    const read = vi.fn(() => {
      unread = 0;
      return json({ readAt: '2026-11-24T10:05:00.000Z' });
    });
    setup({
      'GET portal/notifications': () =>
        json({
          items: [alert({ unread: unread > 0 }), alert({ _id: 'n-2', title: 'Older', unread: false })],
          total: 2,
          unread,
        }),
      'POST portal/notifications/read': read,
    });
    const list = await screen.findByRole('list', { name: 'Alerts' });
    const [first, second] = within(list).getAllByRole('listitem');
    expect(first).toHaveTextContent('New');
    expect(first).toHaveTextContent('Tamper alarm at Front door');
    expect(within(first!).getByRole('link', { name: 'Front door' })).toHaveAttribute(
      'href',
      '/app/device/device-1',
    );
    expect(second).not.toHaveTextContent('New');
    expect(screen.getByText('1 unread')).toBeInTheDocument();

    await setupUser().click(screen.getByRole('button', { name: 'Mark all as read' }));
    expect(read).toHaveBeenCalledTimes(1);
    expect(await screen.findByText('Everything read')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Mark all as read' })).toBeDisabled();
  });

  it('links an inbox notification to where to act on it', async () => {
    setup({
      'GET portal/notifications': () =>
        json({
          items: [
            alert({
              kind: 'stay_request',
              ruleId: null,
              device: null,
              subject: { type: 'stay', _id: 'stay-1', name: 'Ana · Sea view flat', listingId: 'listing-1' },
              title: 'Ana asks to stay at Sea view flat',
            }),
          ],
          total: 1,
          unread: 1,
        }),
    });
    const list = await screen.findByRole('list', { name: 'Alerts' });
    expect(within(list).getByRole('link', { name: 'Ana asks to stay at Sea view flat' })).toHaveAttribute(
      'href',
      '/app/listing/listing-1/request/stay-1',
    );
    expect(within(list).getByText(/Stay request/)).toBeInTheDocument();
  });

  it('says what each rule watches, and turns one off', async () => {
    const bodies: unknown[] = [];
    setup({
      'POST portal/alerts/rules/rule-2': ({ body }) => {
        bodies.push(body);
        return json({ ...offlineRule, enabled: false });
      },
    });
    const rules = await screen.findByRole('list', { name: 'Alert rules' });
    expect(rules).toHaveTextContent('When a lock reports tampering: any lock. Mailed to the admins.');
    expect(rules).toHaveTextContent('When a lock stays offline longer than 30 minutes: Front door.');
    await setupUser().click(within(rules).getByRole('switch', { name: 'Gate quiet on' }));
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]).toMatchObject({
      kind: 'offline',
      enabled: false,
      minutes: 30,
      deviceIds: ['device-1'],
    });
  });

  it("adds a refused-attempts rule, showing the server's rule on its field", async () => {
    const bodies: unknown[] = [];
    setup({
      'POST portal/alerts/rules': ({ body }) => {
        bodies.push(body);
        if (bodies.length === 1) {
          return apiError(400, 'bad_request', 'count must be at most 20', [
            { path: 'body.count', message: 'must be at most 20' },
          ]);
        }
        return json(
          { ...tamperRule, _id: 'rule-3', kind: 'denied_attempts', name: 'Guessing', count: 5, minutes: 10 },
          201,
        );
      },
    });
    const user = setupUser();
    await user.click(await screen.findByRole('button', { name: 'Add a rule' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add an alert rule' });
    await user.click(within(dialog).getByLabelText('Alert when', { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: 'Refused attempts' }));
    await user.type(within(dialog).getByRole('textbox', { name: /^Name/ }), 'Guessing');
    // Escape on a filled form asks first (FormModal); "Keep editing" keeps it.
    await user.keyboard('{Escape}');
    const question = await within(dialog).findByRole('alertdialog', { name: 'Discard changes?' });
    await user.click(within(question).getByRole('button', { name: 'Keep editing' }));
    expect(within(dialog).getByRole('textbox', { name: /^Name/ })).toHaveValue('Guessing');
    const count = within(dialog).getByRole('textbox', { name: /^Refused attempts/ });
    await user.clear(count);
    await user.type(count, '50');
    const minutes = within(dialog).getByRole('textbox', { name: /^Within \(minutes\)/ });
    await user.clear(minutes);
    await user.type(minutes, '10');
    await user.click(within(dialog).getByRole('button', { name: 'Add rule' }));
    expect(await within(dialog).findByText('Refused attempts must be at most 20')).toBeInTheDocument();
    expect(bodies[0]).toMatchObject({
      kind: 'denied_attempts',
      name: 'Guessing',
      count: 50,
      minutes: 10,
      userId: null,
    });

    await user.clear(count);
    await user.type(count, '5');
    await user.click(within(dialog).getByRole('button', { name: 'Add rule' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Add an alert rule' })).not.toBeInTheDocument(),
    );
    expect(bodies[1]).toMatchObject({ count: 5 });
  });

  it('deletes a rule only after confirming', async () => {
    const deleted = vi.fn(() => json(undefined, 204));
    setup({ 'DELETE portal/alerts/rules/rule-1': deleted });
    const user = setupUser();
    await user.click(await screen.findByRole('button', { name: 'Delete Tamper alarm' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this rule?' });
    expect(deleted).not.toHaveBeenCalled();
    await user.click(within(dialog).getByRole('button', { name: 'Delete rule' }));
    await waitFor(() => expect(deleted).toHaveBeenCalledTimes(1));
  });

  it('shows an empty state and errors', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    setup({
      'GET portal/notifications': () => json({ items: [], total: 0, unread: 0 }),
      'GET portal/alerts/rules': () => apiError(500, 'internal', 'Boom'),
    });
    expect(await screen.findByText('No alerts yet')).toBeInTheDocument();
    expect(await screen.findByText('Could not load the rules')).toBeInTheDocument();
  });
});
