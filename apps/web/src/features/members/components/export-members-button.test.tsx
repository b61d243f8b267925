import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { storage } from '@/lib/storage';
import { apiError, json } from '@/testing/fetch-mock';
import { memberFixture, sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';
import { setupUser } from '@/testing/user';

const CSV = 'email,firstName,lastName\ngrace@example.com,Grace,Hopper\n';

function setup(list: () => Response) {
  storage.setAuthToken(validToken());
  return renderApp('/app/user', {
    'GET auth': () => json(sessionFixture(['admin'])),
    'GET portal/users': () => json({ items: [memberFixture()], total: 1 }),
    'GET portal/user/list': list,
  });
}

// jsdom has no object URLs: stand-ins for the test, put back afterwards.
const { createObjectURL, revokeObjectURL } = URL;
afterEach(() => {
  URL.createObjectURL = createObjectURL;
  URL.revokeObjectURL = revokeObjectURL;
});

describe('Export CSV on the people list', () => {
  it('downloads the people as CSV, asked with the session', async () => {
    const blobs: Blob[] = [];
    URL.createObjectURL = vi.fn((blob: Blob) => {
      blobs.push(blob);
      return 'blob:people';
    });
    URL.revokeObjectURL = vi.fn();
    const clicks: HTMLAnchorElement[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicks.push(this);
    });
    const { calls } = setup(
      () => new Response(CSV, { status: 200, headers: { 'content-type': 'text/csv; charset=utf-8' } }),
    );
    await setupUser().click(await screen.findByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(clicks).toHaveLength(1));
    expect(clicks[0]!.download).toMatch(/^people-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(clicks[0]!.href).toBe('blob:people');
    expect(await blobs[0]!.text()).toBe(CSV);
    expect(blobs[0]!.type).toBe('text/csv;charset=utf-8');
    const call = calls.find((c) => c.path === 'portal/user/list')!;
    expect(call.headers.authorization).toMatch(/^Bearer /);
    click.mockRestore();
  });

  it('says when the export fails', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    setup(() => apiError(403, 'forbidden', 'Only admins may export people'));
    await setupUser().click(await screen.findByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByText('Could not export the people')).toBeInTheDocument();
    expect(screen.getByText('Only admins may export people')).toBeInTheDocument();
  });
});
