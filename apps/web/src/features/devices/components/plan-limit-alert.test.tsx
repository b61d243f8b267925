import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { storage } from '@/lib/storage';
import { apiError, json } from '@/testing/fetch-mock';
import { deviceFixture, sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';
import { setupUser } from '@/testing/user';

// The server refuses a lock the portal's plan does not allow (402 payment_required, issue 16
// defect 7): the form says why, in place, with the way to the plans.
const REFUSAL =
  'The Free plan allows 2 locks and this portal has 2. Its locks keep working; choose a paid plan (Upgrade) to add more.';

describe('adding a lock the plan does not allow', () => {
  it.each([
    ['Add lock', 'POST portal/device/new'],
    ['Add code lock', 'POST device/codelock/add'],
  ])(
    '%s shows the reason and a link to the plans',
    async (button, route) => {
      vi.spyOn(console, 'error').mockImplementation(() => {});
      storage.setAuthToken(validToken());
      renderApp('/app/device', {
        'GET auth': () => json(sessionFixture(['admin'])),
        'GET portal/devices': () => json({ items: [deviceFixture()], total: 1 }),
        'GET portal/device/battery/low': () => json([]),
        [route]: () => apiError(402, 'payment_required', REFUSAL),
      });
      const user = setupUser();
      await user.click((await screen.findAllByRole('button', { name: button }))[0]!);
      const dialog = await screen.findByRole('dialog', { name: button });
      await user.type(within(dialog).getByLabelText(/^Name/), 'Back door');
      if (button === 'Add lock') {
        await user.click(within(dialog).getByRole('combobox', { name: /^Model/ }));
        await user.click(await screen.findByRole('option', { name: 'Latchkey simulated lock' }));
      } else {
        await user.type(within(dialog).getByLabelText(/^Master code/), '80417');
      }
      await user.click(within(dialog).getByRole('button', { name: button }));
      const alert = await within(dialog).findByRole('alert');
      expect(alert).toHaveTextContent(REFUSAL);
      expect(within(alert).getByRole('link', { name: 'See plans' })).toHaveAttribute('href', '/app/upgrade');
      expect(within(dialog).getByLabelText(/^Name/)).toHaveValue('Back door');
    },
    20_000,
  );
});
