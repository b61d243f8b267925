import type { CompanyCode } from '@latchkey/shared';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { storage } from '@/lib/storage';
import { apiError, json, type MockHandler } from '@/testing/fetch-mock';
import { sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';

const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(Z|[+-]\d{2}:\d{2})$/;

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
    ...routes,
  });
}

const setDateTime = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label, { exact: false, selector: 'input' }), { target: { value } });

describe('CompanyCodeNewPage', () => {
  it('says what is wrong before sending anything', async () => {
    const { calls } = setup();
    const user = userEvent.setup();
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
    const user = userEvent.setup();
    await user.type(await screen.findByRole('textbox', { name: /^Name/ }), 'Cleaning crew');
    const code = screen.getByRole('textbox', { name: /^Code/ });
    await user.type(code, '482915');
    setDateTime('Valid from', '2030-01-10T09:00');
    await user.click(screen.getByRole('button', { name: 'Add company code' }));
    await waitFor(() =>
      expect(code).toHaveAccessibleDescription(
        expect.stringContaining('Code is already used by someone else in this portal; choose another'),
      ),
    );
    const body = bodies[0] as { name: string; code: string; validFrom: string; validUntil: null };
    expect(body).toMatchObject({ name: 'Cleaning crew', code: '482915', validUntil: null });
    expect(body.validFrom).toMatch(ISO_WITH_OFFSET);
    expect(new Date(body.validFrom).getTime()).toBe(new Date(2030, 0, 10, 9, 0).getTime());

    await user.click(screen.getByRole('button', { name: 'Add company code' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/access-codes'));
    expect(await screen.findByText('Company code added')).toBeInTheDocument();
  });
});
