import type { OutboxMessage } from '@latchkey/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { storage } from '@/lib/storage';
import { json } from '@/testing/fetch-mock';
import { sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';
import { setupUser } from '@/testing/user';

function message(overrides: Partial<OutboxMessage> = {}): OutboxMessage {
  return {
    _id: 'mail-1',
    template: 'verify_email',
    to: 'ada@example.com',
    subject: 'Confirm your email address',
    text: 'Hello Ada,\n\nConfirm it here: http://localhost:3413/verify?token=abc123abc123abc123abc\n\nLatchkey',
    html: '<p>Hello <b>Ada</b></p><script>alert(1)</script>',
    attempts: 1,
    lastError: null,
    createdAt: '2026-11-23T14:00:00.000Z',
    sentAt: '2026-11-23T14:00:02.000Z',
    failedAt: null,
    ...overrides,
  };
}

describe('DevMailboxPage', () => {
  it('lists the outbox and opens a message: sandboxed HTML, text with links', async () => {
    storage.setAuthToken(validToken());
    const { calls } = renderApp('/app/devTools/mail', {
      'GET auth': () => json(sessionFixture(['superAdmin'])),
      'GET admin/mail': () =>
        json({
          items: [
            message(),
            message({
              _id: 'mail-2',
              template: 'invitation',
              to: 'grace@example.com',
              subject: 'You are invited to Harbor View',
              sentAt: null,
              failedAt: '2026-11-23T15:00:00.000Z',
              attempts: 5,
              lastError: 'ECONNREFUSED 127.0.0.1:25',
            }),
            message({ _id: 'mail-3', subject: 'Reset your password', sentAt: null, attempts: 0 }),
          ],
          total: 3,
        }),
    });
    const first = await screen.findByRole('button', { name: /Confirm your email address/ });
    expect(first).toHaveTextContent('Sent');
    expect(screen.getByRole('button', { name: /You are invited to Harbor View/ })).toHaveTextContent(
      'Failed',
    );
    expect(screen.getByRole('button', { name: /Reset your password/ })).toHaveTextContent('Queued');
    expect(screen.getByText('1–3 of 3 messages')).toBeInTheDocument();
    // The nav offers platform staff the developer tools, whose index leads here.
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    expect(within(nav).getByRole('link', { name: 'Developer tools' })).toHaveAttribute(
      'href',
      '/app/devTools',
    );
    // And the way back to their index.
    expect(within(screen.getByRole('main')).getByRole('link', { name: 'Developer tools' })).toHaveAttribute(
      'href',
      '/app/devTools',
    );

    const user = setupUser();
    await user.click(first);
    const frame = await screen.findByTitle('HTML body of “Confirm your email address”');
    expect(frame).toHaveAttribute('sandbox', '');
    expect(frame).toHaveAttribute('srcdoc', message().html);
    expect(
      screen.getByRole('link', { name: 'http://localhost:3413/verify?token=abc123abc123abc123abc' }),
    ).toHaveAttribute('href', 'http://localhost:3413/verify?token=abc123abc123abc123abc');

    await user.click(screen.getByRole('button', { name: /You are invited to Harbor View/ }));
    expect(await screen.findByText('ECONNREFUSED 127.0.0.1:25')).toBeInTheDocument();
    expect(screen.getAllByText(/5 attempts/).length).toBeGreaterThan(0);

    await user.type(screen.getByRole('searchbox', { name: 'Search mail' }), 'grace{Enter}');
    await waitFor(() => expect(calls.some((c) => c.url.includes('search=grace'))).toBe(true));
  });

  it('is for platform staff only', async () => {
    storage.setAuthToken(validToken());
    const { calls } = renderApp('/app/devTools/mail', { 'GET auth': () => json(sessionFixture(['admin'])) });
    expect(await screen.findByRole('heading', { name: /don.t have access/i })).toBeInTheDocument();
    expect(calls.some((c) => c.path === 'admin/mail')).toBe(false);
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    expect(within(nav).queryByRole('link', { name: 'Developer tools' })).not.toBeInTheDocument();
  });

  it('says when there is no mail yet', async () => {
    storage.setAuthToken(validToken());
    renderApp('/app/devTools/mail', {
      'GET auth': () => json(sessionFixture(['superAdmin'])),
      'GET admin/mail': () => json({ items: [], total: 0 }),
    });
    expect(await screen.findByRole('heading', { name: 'No mail yet' })).toBeInTheDocument();
  });
});
