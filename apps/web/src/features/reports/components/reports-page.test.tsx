import type { Report, ReportSchedule } from '@latchkey/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { storage } from '@/lib/storage';
import { apiError, json, type MockHandler } from '@/testing/fetch-mock';
import { deviceFixture, sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';
import { setupUser } from '@/testing/user';

const entries = (skip: number, total = 60): Report => ({
  kind: 'entries',
  title: 'Entries per lock and person',
  portal: { _id: 'portal-1', name: 'Demo Apartments' },
  period: {
    from: '2026-11-16',
    to: '2026-11-22',
    timeZone: 'Europe/Berlin',
    label: 'Nov 16, 2026 – Nov 22, 2026',
  },
  zones: ['Europe/Berlin'],
  filters: { locks: [], groups: [], people: [] },
  notes: ["Each time is on its lock's clock."],
  columns: [
    { key: 'time', label: 'Time (lock clock)' },
    { key: 'lock', label: 'Lock' },
  ],
  rows: [{ time: skip === 0 ? 'Nov 16, 2026, 08:00' : 'Nov 21, 2026, 18:00', lock: 'Front door' }],
  total,
  skip,
  limit: 50,
  summaries: [
    { title: 'Per lock', columns: [{ key: 'lock', label: 'Lock' }], rows: [{ lock: 'Front door' }] },
  ],
  charts: { entriesPerDay: [], syncFailuresPerLock: [] },
});

const schedule: ReportSchedule = {
  _id: 'schedule-1',
  kind: 'entries',
  frequency: 'weekly',
  filters: { locks: [], groups: [], people: [] },
  recipients: [{ _id: 'user-1', name: 'Ada Admin', email: 'ada@example.com' }],
  lastPeriod: null,
  lastSentAt: null,
  createdAt: '2026-11-20T10:00:00.000Z',
};

function setup(more: Record<string, MockHandler> = {}) {
  storage.setAuthToken(validToken());
  return renderApp('/app/deviceanduserreports', {
    'GET auth': () => json(sessionFixture(['admin'])),
    'GET portal/devices': () => json({ items: [deviceFixture()], total: 1 }),
    'GET portal/groups': () => json({ items: [], total: 0 }),
    'GET portal/users': () => json({ items: [], total: 0 }),
    'GET portal/scopedUsers': () => json([]),
    'GET portal/report/schedules': () => json({ items: [schedule] }),
    'POST portal/report': (call) => json(entries((call.body as { skip: number }).skip)),
    ...more,
  });
}

describe('ReportsPage', () => {
  it('runs the chosen report for last week, shows it and pages through its rows', async () => {
    const user = setupUser();
    const { calls } = setup();
    await user.click(await screen.findByRole('button', { name: 'Show report' }));
    const report = await screen.findByRole('region', { name: 'Report' });
    expect(await within(report).findByText('Nov 16, 2026, 08:00')).toBeInTheDocument();
    expect(within(report).getByText(/Demo Apartments · Nov 16, 2026 – Nov 22, 2026/)).toBeInTheDocument();
    expect(within(report).getByText(/Times on each lock's clock: Europe\/Berlin/)).toBeInTheDocument();
    const asked = calls.filter((call) => call.path === 'portal/report');
    expect(asked[0]!.body).toEqual({
      kind: 'entries',
      period: { preset: 'last-week' },
      filters: { deviceIds: [], groupIds: [], userIds: [] },
      skip: 0,
      limit: 50,
      format: 'json',
    });
    await user.click(within(report).getByRole('button', { name: 'Page 2' }));
    expect(await within(report).findByText('Nov 21, 2026, 18:00')).toBeInTheDocument();
    expect(calls.filter((call) => call.path === 'portal/report').at(-1)!.body).toMatchObject({ skip: 50 });
  });

  it('says what is wrong with chosen dates before asking, and shows the server’s refusal', async () => {
    const user = setupUser();
    const { calls } = setup({ 'POST portal/report': () => apiError(404, 'not_found', 'Lock not found') });
    await user.click(await screen.findByRole('combobox', { name: 'Period' }));
    await user.click(await screen.findByRole('option', { name: 'Chosen dates' }));
    await user.click(screen.getByRole('button', { name: 'Show report' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Choose the first and the last day of the period.',
    );
    expect(calls.some((call) => call.path === 'portal/report')).toBe(false);
    await user.type(screen.getByLabelText('From'), '2026-11-22');
    await user.type(screen.getByLabelText('To'), '2026-11-16');
    await user.click(screen.getByRole('button', { name: 'Show report' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The period must not end before it starts.');
    await user.clear(screen.getByLabelText('To'));
    await user.type(screen.getByLabelText('To'), '2026-11-29');
    await user.click(screen.getByRole('button', { name: 'Show report' }));
    expect(await screen.findByText('Lock not found')).toBeInTheDocument();
  });

  it('lists the scheduled reports and schedules one to the admin who asks', async () => {
    const user = setupUser();
    const { calls } = setup({ 'POST portal/report/schedules': () => json(schedule, 201) });
    const table = await screen.findByRole('table', { name: 'Scheduled reports' });
    expect(within(table).getByText('ada@example.com')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Schedule report' }));
    await waitFor(() =>
      expect(calls.some((call) => call.path === 'portal/report/schedules' && call.method === 'POST')).toBe(
        true,
      ),
    );
    expect(
      calls.find((call) => call.method === 'POST' && call.path === 'portal/report/schedules')!.body,
    ).toEqual({
      kind: 'entries',
      frequency: 'weekly',
      filters: { deviceIds: [], groupIds: [], userIds: [] },
      recipientIds: [],
    });
  });
});
