import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { storage } from '@/lib/storage';
import { json } from '@/testing/fetch-mock';
import { auditFixture, sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';
import { setupUser } from '@/testing/user';

describe('ChangeLogPage', () => {
  it('lists changes newest first, filters them and shows before and after', async () => {
    storage.setAuthToken(validToken());
    const { calls } = renderApp('/app/adminChangeLog', {
      'GET auth': () => json(sessionFixture(['admin'])),
      'GET portal/audit': () =>
        json({
          items: [
            auditFixture(),
            auditFixture({
              _id: 'audit-3',
              action: 'schedule.set',
              entityType: 'schedule',
              before: { user: 'grace@example.com', device: 'Front door', schedule: null },
              after: {
                user: 'grace@example.com',
                device: 'Front door',
                schedule: { windows: [{ days: [1, 2, 3, 4, 5], start: '09:00', end: '17:00' }] },
              },
            }),
            auditFixture({
              _id: 'audit-2',
              actor: null,
              action: 'group.create',
              entityType: 'group',
              before: null,
              after: { name: 'Cleaners' },
            }),
          ],
          total: 3,
        }),
    });
    const table = await screen.findByRole('table');
    expect(within(table).getByText('Lock changed')).toBeInTheDocument();
    expect(within(table).getByText('Group created')).toBeInTheDocument();
    expect(within(table).getAllByText('System').length).toBeGreaterThan(0);
    const first = calls.find((c) => c.path === 'portal/audit')!;
    expect(first.url).toContain('sortBy=createdAt');
    expect(first.url).toContain('descending=true');

    const user = setupUser();
    const toggle = screen.getByRole('button', { name: 'Show the change: Lock changed' });
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const details = document.getElementById(toggle.getAttribute('aria-controls')!)!;
    expect(details).toHaveTextContent('Changed: timeZone');
    expect(details).toHaveTextContent('"timeZone": "UTC"');
    expect(details).toHaveTextContent('"timeZone": "America/New_York"');

    // A schedule change also reads in words.
    await user.click(screen.getByRole('button', { name: 'Show the change: Schedule set' }));
    expect(screen.getByText('Any time → Mon–Fri 09:00–17:00')).toBeInTheDocument();

    await user.click(screen.getByRole('combobox', { name: 'Record type' }));
    // Every kind of record the server logs, the rentals' too (AUDIT_ENTITY_TYPES).
    expect(await screen.findByRole('option', { name: 'Stay' })).toBeInTheDocument();
    await user.click(await screen.findByRole('option', { name: 'Access code' }));
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-11-01' } });
    const lastQuery = () =>
      new URL(calls.filter((c) => c.path === 'portal/audit').at(-1)!.url, 'http://x').searchParams;
    await waitFor(() => {
      expect(lastQuery().get('filterBy')).toBe('entityType');
      expect(lastQuery().get('filterValue')).toBe('access_code');
      expect(new Date(lastQuery().get('fromDate')!).getDate()).toBe(1);
    });

    // Clearing drops all three filters at once.
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => {
      expect(lastQuery().get('filterBy')).toBeNull();
      expect(lastQuery().get('fromDate')).toBeNull();
    });
  });
});
