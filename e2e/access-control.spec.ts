import { expect, test, type Locator, type Page } from '@playwright/test';
import { linkTo, waitForMail } from './mailbox';

/** A form field by its label, whether or not the label carries the required marker " *". */
function field(scope: Page | Locator, label: string) {
  const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return scope.getByLabel(new RegExp(`^${escaped}( \\*)?$`));
}

/** Chooses an option in a Mantine select of `scope` by the select's label. */
async function choose(page: Page, scope: Page | Locator, label: string, option: string | RegExp) {
  // The label names both the input and its option list; the input comes first.
  await field(scope, label).first().click();
  await page.getByRole('option', { name: option }).click();
}

/** A new operator who signs up and confirms their address (only then may they invite people). */
async function signUpOperator(page: Page) {
  const email = `access-${Date.now()}@example.com`;
  await page.goto('/signup');
  const form = page.getByRole('form', { name: 'Create your account' });
  await form.getByLabel('Email').fill(email);
  await form.getByRole('textbox', { name: 'Password', exact: true }).fill('a sturdy passphrase');
  await form.getByLabel('Portal name').fill('Access Lofts');
  await form.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/app\/dashboard$/);
  await page.goto(linkTo(await waitForMail(email, /Confirm your email address/), '/verify'));
  await expect(page.getByRole('heading', { name: 'Email address confirmed' })).toBeVisible();
}

async function addLock(page: Page, name: string) {
  await page.goto('/app/device');
  await page.getByRole('button', { name: 'Add lock' }).first().click();
  const form = page.getByRole('form', { name: 'Add lock' });
  await field(form, 'Name').fill(name);
  await choose(page, form, 'Model', 'Latchkey simulated lock');
  await form.getByRole('button', { name: 'Add lock' }).click();
  await expect(page.getByText(/you will not see it again/)).toBeVisible();
  await page.getByRole('button', { name: 'I have saved it' }).click();
}

/** The "Who can open" tab at a wall-clock time of the lock; answers the person's row. */
async function whoCanOpenAt(page: Page, lockUrl: string, at: string) {
  await page.goto(`${lockUrl}?tab=access`);
  // The date, and the time on the 24-hour clock ('YYYY-MM-DDTHH:MM' split in two).
  await field(page, 'Date').fill(at.slice(0, 10));
  await field(page, 'Time').fill(at.slice(11, 16));
  return page
    .getByRole('list', { name: 'Who can open' })
    .getByRole('listitem')
    .filter({ hasText: 'Wanda Worker' });
}

test('an admin gives a person weekday access through a group, and who-can-open follows time and suspension', async ({
  page,
  browser,
}) => {
  // Two locks, a group, a schedule, an invitation accepted and a suspension: about 50 s, and past
  // the default 60 s when the machine is busy.
  test.setTimeout(120_000);
  await signUpOperator(page);
  await addLock(page, 'North door');
  await addLock(page, 'South door');

  await page.goto('/app/user');
  await page.getByRole('button', { name: 'Add person' }).first().click();
  const person = page.getByRole('form', { name: 'Add person' });
  const wandaEmail = `wanda-${Date.now()}@example.com`;
  await field(person, 'Email').fill(wandaEmail);
  await person.getByLabel('First name').fill('Wanda');
  await person.getByLabel('Last name').fill('Worker');
  await person.getByRole('button', { name: 'Send invitation' }).click();
  // Invited: her code will work on the locks before she ever signs in.
  await expect(person).toBeHidden();
  await expect(page.getByRole('row', { name: /Wanda Worker/ })).toContainText('Invited');

  await page.goto('/app/group');
  await page.getByRole('button', { name: 'New group' }).first().click();
  const group = page.getByRole('form', { name: 'New group' });
  await field(group, 'Name').fill('Day shift');
  await group.getByRole('button', { name: 'Create group' }).click();
  await expect(page).toHaveURL(/\/app\/group\/[\w-]+$/);
  await choose(page, page, 'Add a person', /Wanda Worker/);
  await page.getByRole('button', { name: 'Add', exact: true }).first().click();
  await expect(page.getByRole('list', { name: 'People' })).toContainText('Wanda Worker');
  for (const lock of ['North door', 'South door']) {
    await choose(page, page, 'Add a lock', lock);
    await page.getByRole('button', { name: 'Add', exact: true }).last().click();
    await expect(page.getByRole('list', { name: 'Locks' })).toContainText(lock);
  }

  // A weekday schedule at the north door.
  await page.goto('/app/device');
  await page.getByRole('link', { name: 'North door' }).click();
  await expect(page).toHaveURL(/\/app\/device\/[\w-]+/);
  const lockUrl = new URL(page.url()).pathname;
  await page.getByRole('button', { name: 'Edit schedule of Wanda Worker' }).click();
  const schedule = page.getByRole('form', { name: 'Schedule' });
  const anyTime = schedule.getByRole('switch', { name: 'Any time' });
  if (await anyTime.isChecked()) await anyTime.click();
  for (const day of ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday']) {
    const toggle = schedule.getByRole('button', { name: day, exact: true });
    if ((await toggle.getAttribute('aria-pressed')) !== 'true') await toggle.click();
  }
  for (const day of ['Saturday', 'Sunday']) {
    const toggle = schedule.getByRole('button', { name: day, exact: true });
    if ((await toggle.getAttribute('aria-pressed')) === 'true') await toggle.click();
  }
  await field(schedule, 'Start').fill('09:00');
  await field(schedule, 'End').fill('17:00');
  await schedule.getByRole('button', { name: 'Save schedule' }).click();
  await expect(page.getByText('Mon–Fri 09:00–17:00').first()).toBeVisible();

  // An access code on the person.
  await page.goto('/app/user');
  await page
    .getByRole('link', { name: /Wanda Worker/ })
    .first()
    .click();
  await page.getByRole('form', { name: 'Set access code' }).getByLabel('New access code').fill('864213');
  await page.getByRole('button', { name: 'Set code' }).click();
  await expect(page.getByRole('button', { name: 'Change code' })).toBeVisible();
  const personUrl = new URL(page.url()).pathname;

  // Wednesday 2026-11-25 10:00 on the lock's clock is inside the window, 20:00 is not.
  let row = await whoCanOpenAt(page, lockUrl, '2026-11-25T10:00');
  await expect(row).toContainText('Can open');
  await expect(row).toContainText('Code');
  row = await whoCanOpenAt(page, lockUrl, '2026-11-25T20:00');
  await expect(row).toContainText('Outside their schedule');
  row = await whoCanOpenAt(page, lockUrl, '2026-11-28T10:00');
  await expect(row).toContainText('Outside their schedule');

  // Only someone who has joined can be suspended (until then, withdrawing the invitation takes
  // their access away): Wanda accepts from her mail, in her own browser.
  await page.goto(personUrl);
  await expect(page.getByRole('region', { name: 'Membership' })).toContainText('not accepted');
  await expect(page.getByRole('button', { name: 'Suspend' })).toHaveCount(0);
  const wanda = await browser.newContext();
  const wandaPage = await wanda.newPage();
  await wandaPage.goto(linkTo(await waitForMail(wandaEmail, /You are invited to Access Lofts/), '/invite'));
  const answer = wandaPage.getByRole('form', { name: 'Answer the invitation' });
  await answer.getByRole('textbox', { name: 'Password', exact: true }).fill('wanda passphrase 1');
  await answer.getByRole('textbox', { name: 'Confirm password' }).fill('wanda passphrase 1');
  await answer.getByRole('button', { name: 'Accept and create account' }).click();
  await expect(wandaPage).toHaveURL(/\/user$/); // a basic user lands in their own area
  await wanda.close();

  // Suspended: no longer among those who can open, even inside the window.
  await page.goto(personUrl);
  await page.getByRole('button', { name: 'Suspend' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Suspend' }).click();
  await expect(page.getByText('Suspended').first()).toBeVisible();
  row = await whoCanOpenAt(page, lockUrl, '2026-11-25T10:00');
  await expect(row).toContainText('Suspended');
  await expect(row).not.toContainText('Can open');
});
