import { expect, test, type Page } from '@playwright/test';
import { demo, signIn } from './helpers';

// Issue 19, item 2: shopping on the address the start-up line prints, the payment and success pages
// opened on another one (signed out there) and the paid item stayed in the cart, to be paid twice.
// Now the success page comes back to the same address, the cart is emptied, the success link shows
// the same to someone signed out, and the same cart is not charged again.

/** A form field by its label, with or without the required marker. */
const field = (page: Page, label: string) => page.getByLabel(new RegExp(`^${label}( \\*)?$`));

/** One wireless keypad from its page through the address and shipping steps to the payment page. */
async function orderKeypad(page: Page, email: string) {
  await page.goto('/product/wireless-keypad');
  await page.getByRole('button', { name: 'Add to cart' }).click();
  await page.getByRole('link', { name: 'Go to the cart' }).click();
  await page.getByRole('link', { name: 'Check out' }).click();
  await expect(page).toHaveURL(/\/address$/);
  // A portal admin's form is prefilled from the billing details once they arrive, over an untouched
  // form only: typing is done after that, as a person reading the form would.
  await page.waitForLoadState('networkidle');
  await field(page, 'Email').fill(email);
  await field(page, 'Full name').fill('Pat Buyer');
  await field(page, 'Street and number').fill('Invalidenstraße 1');
  await field(page, 'Postal code').fill('10115');
  await field(page, 'City').fill('Berlin');
  await page.getByRole('button', { name: 'Continue to shipping' }).click();
  await expect(page).toHaveURL(/\/pickShipping$/);
  await page.getByRole('button', { name: /^Pay €/ }).click();
}

test('a paid cart is emptied, its success page shows on the same address and signed out, and it is not paid twice', async ({
  page,
  browser,
  baseURL,
}) => {
  const email = `paid-once-${Date.now()}@example.com`;
  await signIn(page, demo.admin.email, demo.admin.password);
  await expect(page).toHaveURL(/\/app/);

  await orderKeypad(page, email);
  await expect(page).toHaveURL(/\/api3\/sandbox-pay\/cs_test_sbx_/);
  const paymentPage = page.url();
  await page.getByLabel('Name on card').fill('Pat Buyer');
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry (MM/YY)').fill('12/34');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: /^Pay/ }).click();

  // Back on the address the shopping started on, still signed in, and the cart is empty.
  await expect(page).toHaveURL(/\/success\?checkout=/);
  expect(new URL(page.url()).origin).toBe(new URL(baseURL!).origin);
  await expect(page.getByRole('heading', { name: 'Thank you for your order' })).toBeVisible();
  const ref = (await page.locator('strong', { hasText: /^LK-/ }).textContent())!;
  await expect(page.getByRole('link', { name: 'Your orders' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Cart, empty' })).toBeVisible();
  const successPage = page.url();

  // The same link, signed out: the order's state, and nothing about the buyer.
  const visitor = await browser.newContext();
  try {
    const signedOut = await visitor.newPage();
    await signedOut.goto(successPage);
    await expect(signedOut.getByRole('heading', { name: 'Thank you for your order' })).toBeVisible();
    await expect(signedOut.getByText(`Order ${ref} is paid`)).toBeVisible();
    await expect(signedOut.getByRole('link', { name: 'Your orders' })).toHaveCount(0);
    await expect(signedOut.getByText(email)).toHaveCount(0);
  } finally {
    await visitor.close();
  }

  // The payment page takes no second payment.
  await page.goto(paymentPage);
  await expect(page.getByText('This checkout is paid.')).toBeVisible();

  // The same cart again, by the same email: asked, not charged.
  await orderKeypad(page, email);
  const refusal = page.getByRole('alert').filter({ hasText: 'You paid for these items already' });
  await expect(refusal).toContainText(ref);
  await refusal.getByRole('button', { name: 'Empty the cart' }).click();
  await expect(page.getByRole('heading', { name: 'Your cart is empty' })).toBeVisible();
});
