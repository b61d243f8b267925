import { expect, test } from '@playwright/test';
import { demo, signIn } from './helpers';

// Issue 19, item 8: the admin's 20 screens in sections that fit the screen, and the menu kept on
// an unknown address.

test('on a laptop the grouped sidebar shows every section down to Settings without scrolling', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, demo.admin.email, demo.admin.password);
  await expect(page).toHaveURL(/\/app\/dashboard$/);
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  for (const section of ['Locks & access', 'People', 'Rentals', 'Billing & shop', 'Settings']) {
    await expect(nav.getByRole('button', { name: section })).toBeInViewport();
  }
  await expect(nav.getByRole('link', { name: 'Sync center' })).toBeInViewport();
  await expect(nav.getByRole('link', { name: 'Settings' })).toBeInViewport({ ratio: 1 });

  await page.goto('/app/no/such/page');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await nav.getByRole('link', { name: 'Settings' }).click();
  await expect(page).toHaveURL(/\/app\/settings$/);
});

test('on a phone the menu shows every section heading and opens one to reach Settings', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, demo.admin.email, demo.admin.password);
  await expect(page).toHaveURL(/\/app\/dashboard$/);
  await page.getByRole('button', { name: 'Open navigation' }).click();
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  for (const section of ['Locks & access', 'People', 'Rentals', 'Billing & shop', 'Settings']) {
    await expect(nav.getByRole('button', { name: section })).toBeInViewport();
  }
  await nav.getByRole('button', { name: 'Settings' }).click();
  await nav.getByRole('link', { name: 'Settings' }).click();
  await expect(page).toHaveURL(/\/app\/settings$/);
});
