import { expect, test, type Page } from '@playwright/test';
import { axeViolations } from './axe';
import { demo, signIn } from './helpers';

// Find anything, act on many (issue 19, item 7): the header's search finds a person by part of
// their email and a lock by its name from the keyboard; a bulk access change on the people list
// reaches the sync state of every lock it concerns.

/** Axe's findings on the page as it is (WCAG 2.1 AA), each with the elements it names. */
async function violations(page: Page) {
  return (await axeViolations(page)).map(
    (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
  );
}

/** The parts of the answers this test reads (a group, a page of locks or people, a sync state). */
interface Answer {
  _id: string;
  items: { _id: string; name: string; email: string }[];
  credentials: { userId: string | null }[];
}

/** Calls the API from the signed-in browser with its stored token. */
function apiAsPage(page: Page, method: string, path: string, body?: unknown) {
  return page.evaluate(
    async ({ method, path, body }) => {
      const token = (localStorage.getItem('authToken') ?? '').replace(/^"|"$/g, '');
      const response = await fetch(`/api3/${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
      });
      const text = await response.text();
      return { status: response.status, body: (text ? JSON.parse(text) : null) as Answer };
    },
    { method, path, body },
  );
}

test('Ctrl+K finds a person by part of their email and a lock by its name; Enter opens each', async ({
  page,
}) => {
  await signIn(page, demo.admin.email, demo.admin.password);
  await expect(page).toHaveURL(/\/app/);
  await expect(page.getByRole('button', { name: /^Search/ }).first()).toBeVisible();

  await page.keyboard.press('Control+k');
  const box = page.getByRole('combobox', { name: /Search people, locks/ });
  await expect(box).toBeFocused();
  await box.fill('n.caret');
  await expect(page.getByRole('option', { name: /Ben Caretaker/ })).toBeVisible();
  // The palette with its results passes axe (WCAG 2.1 AA), as every screen does.
  expect(await violations(page)).toEqual([]);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/app\/user\/[\w-]+$/);
  await expect(page.getByRole('heading', { level: 1, name: /Ben Caretaker/ })).toBeVisible();

  // "/" opens it too (outside a field); the first lock found is the active result.
  await page.keyboard.press('/');
  await box.fill('bike r');
  await expect(page.getByRole('option', { name: /Bike room/ })).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/app\/device\/[\w-]+/);
  await expect(page.getByRole('heading', { level: 1, name: 'Bike room' })).toBeVisible();
});

test('a bulk access change on the people list reaches every chosen lock’s sync state', async ({ page }) => {
  await signIn(page, demo.admin.email, demo.admin.password);
  await expect(page).toHaveURL(/\/app/);
  // A group of its own for this test, opening two of the demo's locks, so nothing else shifts.
  const groupName = `Bulk ${Date.now().toString(36)}`;
  const group = await apiAsPage(page, 'POST', 'portal/group', { name: groupName });
  expect(group.status).toBe(201);
  const locks = await apiAsPage(page, 'GET', 'portal/devices?limit=100');
  const lockIds = ['Bike room', 'Flat 1.2'].map(
    (name) => locks.body.items.find((lock) => lock.name === name)!._id,
  );
  for (const lockId of lockIds) {
    expect((await apiAsPage(page, 'PUT', `group/${group.body._id}/device/${lockId}`)).status).toBe(204);
  }

  await page.goto('/app/user');
  await page.getByRole('checkbox', { name: 'Choose Ana Cleaner' }).check();
  await page.getByRole('checkbox', { name: 'Choose Ben Caretaker' }).check();
  const bar = page.getByRole('region', { name: 'Bulk actions' });
  await expect(bar).toContainText('2 people chosen');
  await bar.getByRole('button', { name: 'Give access…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Give 2 people access' });
  await expect(dialog).toBeVisible();
  expect(await violations(page)).toEqual([]);
  await dialog.getByRole('radio', { name: /A group/ }).check();
  await dialog.getByRole('combobox', { name: 'Group' }).click();
  await page.getByRole('option', { name: groupName }).click();
  await dialog.getByRole('button', { name: 'Give access to 2 people' }).click();
  await expect(page.getByText(`${groupName}: access given`)).toBeVisible();
  await expect(bar).toBeHidden();

  const people = await apiAsPage(page, 'GET', 'portal/users?limit=100');
  const personIds = people.body.items
    .filter((p) => /^(ana\.cleaner|ben\.caretaker)@/.test(p.email))
    .map((p) => p._id);
  expect(personIds).toHaveLength(2);
  for (const lockId of lockIds) {
    // The lock's desired credential set names both (the recompute runs right after the commit).
    await expect
      .poll(async () => {
        const sync = await apiAsPage(page, 'GET', `device/${lockId}/sync`);
        const holders = new Set(sync.body.credentials.map((c) => c.userId));
        return personIds.every((id) => holders.has(id));
      })
      .toBe(true);
  }
  // And the screen says so: the lock's Sync tab lists them.
  await page.goto(`/app/device/${lockIds[0]}?tab=sync`);
  await expect(page.getByText(/Ana Cleaner/).first()).toBeVisible();
  await expect(page.getByText(/Ben Caretaker/).first()).toBeVisible();

  // Leave the demo as it was for the other journeys.
  const removed = await apiAsPage(page, 'DELETE', `portal/group/${group.body._id}`);
  expect(removed.status).toBeLessThan(300);
});
