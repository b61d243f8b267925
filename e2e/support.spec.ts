import { expect, test } from '@playwright/test';
import { axeViolations } from './axe';
import { demo, forgetSignIn, signIn } from './helpers';
import { linkTo, waitForMail } from './mailbox';

// Support requests (issue 20, item 4): a person files a request with a picture from a lock's page
// (the request names that screen), platform staff find it in their inbox, take it and answer; the
// answer arrives by mail with a link to the request, and the person sees it there.

const staff = { email: 'staff@demo.latchkey.dev', password: 'demo-staff-pass' };

/** A small PNG, as a phone's screenshot would be uploaded (drawn by the browser's canvas). */
async function pngFromPage(page: import('@playwright/test').Page): Promise<Buffer> {
  const base64 = await page.evaluate(() => {
    const canvas = document.createElement('canvas');
    canvas.width = 120;
    canvas.height = 80;
    const context = canvas.getContext('2d')!;
    context.fillStyle = '#2b2f36';
    context.fillRect(0, 0, 120, 80);
    context.fillStyle = '#e03131';
    context.beginPath();
    context.arc(60, 40, 14, 0, Math.PI * 2);
    context.fill();
    return canvas.toDataURL('image/png').split(',')[1]!;
  });
  return Buffer.from(base64, 'base64');
}

test('a person reports a lock problem with a picture, staff answer it, the answer is mailed and shown', async ({
  page,
}) => {
  test.setTimeout(150_000);
  const problem = `The keypad blinks red ${Date.now()}`;

  // Sam opens one of their locks and reports a problem with it.
  await signIn(page, demo.user.email, demo.user.password);
  await expect(page).toHaveURL(/\/user$/);
  await page.locator('main a[href^="/user/locks/"]').first().click();
  await expect(page).toHaveURL(/\/user\/locks\/[^/]+$/);
  const lockScreen = new URL(page.url()).pathname;
  await page.getByRole('link', { name: 'Report a problem with this lock' }).click();
  await expect(page).toHaveURL(/\/app\/support\/lock\?from=/);
  await expect(page.getByRole('heading', { level: 1, name: 'New request: Lock problem' })).toBeVisible();
  await expect(page.getByText(lockScreen, { exact: true })).toBeVisible();

  await page.getByLabel('What happened').fill(problem);
  await page.locator('input[type="file"]').setInputFiles({
    name: 'keypad.png',
    mimeType: 'image/png',
    buffer: await pngFromPage(page),
  });
  const preview = page.getByRole('img', { name: 'Picture 1: keypad.png' });
  await expect(preview).toBeVisible();
  await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await page.getByRole('button', { name: 'Send request' }).click();
  await expect(page).toHaveURL(/\/app\/support\/request\/[^/]+$/);
  const requestPath = new URL(page.url()).pathname;
  await expect(page.getByRole('heading', { level: 1, name: 'Lock problem' })).toBeVisible();
  await expect(page.getByText('Waiting for support')).toBeVisible();
  await expect(page.getByText(problem)).toBeVisible();
  // The picture comes back re-encoded, through the session (an <img> of an object URL).
  const stored = page.getByRole('img', { name: 'Image 1 of the request' });
  await expect(stored).toBeVisible();
  // Drawn, not just present: the thumbnail (480 px at most) of the 120 px picture is 120 px wide.
  await expect.poll(() => stored.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(120);
  await expect(page.getByRole('link', { name: lockScreen })).toBeVisible();
  await forgetSignIn(page);

  // Staff find it in the inbox, see the screen it came from and the picture, take it and answer.
  await signIn(page, staff.email, staff.password);
  await expect(page).toHaveURL(/\/app/);
  await page.getByRole('link', { name: 'Support inbox' }).click();
  await expect(page).toHaveURL(/\/app\/platform\/support$/);
  await page.getByRole('textbox', { name: 'Search requests' }).fill(problem);
  const row = page.getByRole('row').filter({ hasText: problem });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Demo Apartments');
  await row.getByRole('button', { name: 'Lock problem' }).click();
  const drawer = page.getByRole('dialog', { name: 'Lock problem · Demo Apartments' });
  await expect(drawer).toBeVisible();
  await expect(drawer.getByText(lockScreen)).toBeVisible();
  const staffImage = drawer.getByRole('img', { name: 'Image 1 of the request' });
  await expect(staffImage).toBeVisible();
  await expect.poll(() => staffImage.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(120);
  // The drawer takes the right side (its styles are in the app's stylesheet).
  const box = (await drawer.boundingBox())!;
  expect(box.x).toBeGreaterThan(300);
  await drawer.getByRole('button', { name: 'Assign to me' }).click();
  await expect(drawer.getByText('Taken by Stella Staff')).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);
  const answer = 'It had not taken your new code yet. It has now: please try again.';
  await drawer.getByLabel('Answer').fill(answer);
  await drawer.getByRole('button', { name: 'Send answer' }).click();
  await expect(drawer.getByRole('list', { name: 'Messages' }).getByText(answer)).toBeVisible();
  await expect(drawer.getByRole('textbox', { name: 'Answer' })).toHaveValue('');
  await expect(drawer.getByText('Answered', { exact: true })).toBeVisible();
  await page.keyboard.press('Escape');
  await forgetSignIn(page);

  // The answer arrives by mail with the request's link; Sam opens it and reads the answer.
  const mail = await waitForMail(demo.user.email, /Latchkey support answered your request/);
  expect(mail.text).toContain(answer);
  const link = linkTo(mail, requestPath);
  await signIn(page, demo.user.email, demo.user.password);
  await expect(page).toHaveURL(/\/user$/);
  await page.goto(link);
  await expect(page.getByText(answer)).toBeVisible();
  await expect(page.getByText('Latchkey support', { exact: true })).toBeVisible();
  await expect(page.getByText('Answered', { exact: true })).toBeVisible();
});
