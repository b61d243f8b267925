import type { RequestableLock } from '@latchkey/shared';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { storage } from '@/lib/storage';
import { json } from '@/testing/fetch-mock';
import { sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';
import { setupUser } from '@/testing/user';

const locks: RequestableLock[] = [
  { _id: 'bike', name: 'Bike room', hasAccess: true, waiting: false },
  { _id: 'cellar', name: 'Cellar', hasAccess: false, waiting: true },
  { _id: 'roof', name: 'Roof terrace', hasAccess: false, waiting: false },
];

describe('AskAccessPage', () => {
  it('lists the locks one does not open first, and says which one opens already', async () => {
    storage.setAuthToken(validToken());
    renderApp('/user/access', {
      'GET auth': () => json(sessionFixture(['user'])),
      'GET portal/accessRequest/locks': () => json(locks),
      'POST accessRequest': () => json({ items: [], total: 0 }),
    });
    const user = setupUser();
    const form = await screen.findByRole('form', { name: 'Ask for access' });
    await user.click(within(form).getByLabelText(/^Lock/, { selector: 'input' }));
    const options = await screen.findAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual([
      'Cellar (asked)',
      'Roof terrace',
      'Bike room (you open it already: ask for more time)',
    ]);
    // A waiting request is not asked twice; a lock one opens may be (a wider schedule).
    expect(screen.getByRole('option', { name: 'Cellar (asked)' })).toHaveAttribute('data-combobox-disabled');
    expect(screen.getByRole('option', { name: /^Bike room/ })).not.toHaveAttribute('data-combobox-disabled');
  });
});
