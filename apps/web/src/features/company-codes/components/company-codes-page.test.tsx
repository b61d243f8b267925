import type { CompanyCode } from '@latchkey/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { storage } from '@/lib/storage';
import { apiError, json, type MockHandler } from '@/testing/fetch-mock';
import { sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';
import { setupUser } from '@/testing/user';

const cleaners: CompanyCode = {
  _id: 'code-1',
  name: 'Cleaning crew',
  code: '482915',
  validFrom: null,
  validUntil: null,
  createdAt: '2026-01-01T00:00:00.000Z',
};
const expired: CompanyCode = {
  _id: 'code-2',
  name: 'Summer deliveries',
  code: '7301',
  validFrom: '2020-06-01T08:00:00.000Z',
  validUntil: '2020-09-01T08:00:00.000Z',
  createdAt: '2020-05-01T00:00:00.000Z',
};
const upcoming: CompanyCode = {
  ...expired,
  _id: 'code-3',
  name: 'Auditors',
  validFrom: '2099-01-01T08:00:00.000Z',
  validUntil: null,
};

function setup(routes: Record<string, MockHandler>) {
  storage.setAuthToken(validToken());
  return renderApp('/app/access-codes', {
    'GET auth': () => json(sessionFixture(['admin'])),
    ...routes,
  });
}

describe('CompanyCodesPage', () => {
  it('lists the codes hidden, with their state, and reveals one on request', async () => {
    setup({ 'GET portal/code/company': () => json([cleaners, expired, upcoming]) });
    expect(await screen.findByRole('heading', { level: 1, name: 'Company codes' })).toBeInTheDocument();
    expect(screen.getByText(/opens every keypad lock/)).toBeInTheDocument();
    const row = (await screen.findByText('Cleaning crew')).closest('tr')!;
    expect(within(row).getAllByText('Active').length).toBeGreaterThan(0);
    expect(within(row).queryByText('482915')).toBeNull();
    expect(within(row).getByLabelText('Code of Cleaning crew, hidden')).toHaveTextContent('••••••');
    await setupUser().click(within(row).getByRole('button', { name: 'Show the code of Cleaning crew' }));
    expect(within(row).getByText('482915')).toBeInTheDocument();
    expect(within(row).getByRole('button', { name: 'Hide the code of Cleaning crew' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    const stateOf = (name: string) => within(screen.getByText(name).closest('tr')!);
    expect(stateOf('Summer deliveries').getAllByText('Expired').length).toBeGreaterThan(0);
    expect(stateOf('Auditors').getAllByText('Not yet valid').length).toBeGreaterThan(0);
    expect(screen.getAllByRole('link', { name: 'New company code' })[0]).toHaveAttribute(
      'href',
      '/app/access-code/new',
    );
  });

  it('invites the first code when there is none', async () => {
    setup({ 'GET portal/code/company': () => json([]) });
    expect(await screen.findByRole('heading', { name: 'No company codes yet' })).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'New company code' })).toHaveLength(2);
  });

  it('shows a failed load with a retry', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    let fail = true;
    setup({
      'GET portal/code/company': () => {
        if (fail) {
          fail = false;
          return apiError(403, 'forbidden', 'Not allowed here');
        }
        return json([cleaners]);
      },
    });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Could not load the company codes');
    expect(alert).toHaveTextContent('Not allowed here');
    await setupUser().click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Cleaning crew')).toBeInTheDocument();
  });

  it('deletes a code only after confirming', async () => {
    let codes = [cleaners];
    const { calls } = setup({
      'GET portal/code/company': () => json(codes),
      'DELETE portal/code/company/code-1': () => {
        codes = [];
        return json(undefined, 204);
      },
    });
    const user = setupUser();
    await user.click(await screen.findByRole('button', { name: 'Delete Cleaning crew' }));
    let dialog = await screen.findByRole('dialog', { name: 'Delete Cleaning crew?' });
    expect(dialog).toHaveTextContent('stops opening');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Delete Cleaning crew' }));
    dialog = await screen.findByRole('dialog', { name: 'Delete Cleaning crew?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete code' }));
    expect(await screen.findByRole('heading', { name: 'No company codes yet' })).toBeInTheDocument();
    // The notifications layer loads with the first notification.
    expect(await screen.findByText('Cleaning crew no longer opens any lock.')).toBeInTheDocument();
    expect(
      calls.filter((c) => c.method === 'DELETE' && c.path === 'portal/code/company/code-1'),
    ).toHaveLength(1);
  });
});
