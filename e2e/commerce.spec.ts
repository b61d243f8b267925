import { expect, test, type Locator, type Page } from '@playwright/test';
import { axeViolations } from './axe';
import { signIn } from './helpers';
import { waitForMail } from './mailbox';

// The shop and plans through the built-in sandbox provider, as a visitor and an admin do it: the
// provider's hosted page takes the test cards, and only its signed webhook changes anything.

const lapsedAdmin = { email: 'lapsed@demo.latchkey.dev', password: 'demo-lapsed-pass' };

/** A form field by its label, whether or not the label carries the required marker " *". */
function field(scope: Page | Locator, label: string) {
  const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return scope.getByLabel(new RegExp(`^${escaped}( \\*)?$`));
}

/** Puts a product in the cart from its page (opened from the shop) and goes on to the cart. */
async function addToCart(page: Page, productId: string, name: string, quantity = 1) {
  await page.goto('/product');
  await page.locator(`main a[href="/product/${productId}"]`).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await page.getByRole('textbox', { name: 'Quantity' }).fill(String(quantity));
  await page.getByRole('button', { name: 'Add to cart' }).click();
  await page.getByRole('link', { name: 'Go to the cart' }).click();
  await expect(page).toHaveURL(/\/cart$/);
}

/** From the cart through the address and shipping steps to the provider's page. */
async function checkOut(page: Page, email: string) {
  await page.getByRole('link', { name: 'Check out' }).click();
  await expect(page).toHaveURL(/\/address$/);
  await field(page, 'Email').fill(email);
  await field(page, 'Full name').fill('Pat Buyer');
  await field(page, 'Street and number').fill('Invalidenstraße 1');
  // A postal code that is not German is refused on the spot.
  await field(page, 'Postal code').fill('1011');
  await field(page, 'City').fill('Berlin');
  await page.getByRole('button', { name: 'Continue to shipping' }).click();
  await expect(page.getByText('Postal code must be a Germany postal code, such as 10115')).toBeVisible();
  await field(page, 'Postal code').fill('10115');
  await page.getByRole('button', { name: 'Continue to shipping' }).click();
  await expect(page).toHaveURL(/\/pickShipping$/);
  await page.getByRole('radio', { name: /Express delivery/ }).check();
  await expect(page.getByText('Express delivery').last()).toBeVisible();
  const pay = page.getByRole('button', { name: /^Pay €/ });
  await expect(pay).toBeEnabled();
  const total = (await pay.textContent())!.replace('Pay ', '').trim();
  await pay.click();
  await expect(page).toHaveURL(/\/api3\/sandbox-pay\/cs_test_sbx_/);
  return total;
}

/** Enters a card on the sandbox's hosted page and submits it. */
async function enterCard(page: Page, number: string) {
  await page.getByLabel('Name on card').fill('Pat Buyer');
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiry (MM/YY)').fill('12/34');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: /^(Pay|Subscribe)/ }).click();
}

async function available(page: Page, productId: string): Promise<number> {
  const response = await page.request.get(`/api3/product/${productId}`);
  return ((await response.json()) as { available: number }).available;
}

test('a visitor fills the cart, enters an address, picks shipping, pays and gets the order by mail', async ({
  page,
}) => {
  const email = `buyer-${Date.now()}@example.com`;
  const before = await available(page, 'smart-lock');
  await addToCart(page, 'smart-lock', 'Latchkey Smart Lock', 2);
  await expect(page.getByTestId('order-total')).toHaveText('€498.00');
  const total = await checkOut(page, email);
  expect(total).toBe('€510.90'); // 2 × 249.00 + express 12.90, the server's prices

  // The provider's page shows the same amount, and is accessible on its own.
  await expect(page.getByText(total).first()).toBeVisible();
  expect((await axeViolations(page)).map((v) => v.id)).toEqual([]);

  await enterCard(page, '4242 4242 4242 4242');
  await expect(page).toHaveURL(/\/success\?checkout=/);
  await expect(page.getByRole('heading', { name: 'Thank you for your order' })).toBeVisible();
  const ref = await page.locator('strong', { hasText: /^LK-/ }).textContent();
  expect(ref).toMatch(/^LK-[A-Z0-9]{8}$/);
  await expect(page.getByText(`is paid: ${total}`)).toBeVisible();
  // The cart is empty again, and the stock was taken.
  await expect(page.getByRole('link', { name: 'Cart, empty' })).toBeVisible();
  expect(await available(page, 'smart-lock')).toBe(before - 2);

  const mail = await waitForMail(email, new RegExp(`^Your Latchkey order ${ref}$`));
  expect(mail.text).toContain('2 × Latchkey Smart Lock: €498.00');
  expect(mail.text).toContain(`Total paid: ${total}`);

  await page.getByRole('link', { name: 'What happens next' }).click();
  await expect(page.getByRole('heading', { name: 'Manage your hardware in Latchkey' })).toBeVisible();
});

test('the declined card lands on canceled with nothing charged, and the stock is back', async ({ page }) => {
  const before = await available(page, 'wireless-keypad');
  await addToCart(page, 'wireless-keypad', 'Wireless Keypad', 3);
  await checkOut(page, `declined-${Date.now()}@example.com`);
  expect(await available(page, 'wireless-keypad')).toBe(before - 3); // held while paying

  await enterCard(page, '4000 0000 0000 0002');
  await expect(page.getByRole('alert')).toHaveText('Your card was declined.');
  await page.getByRole('link', { name: /Cancel and go back/ }).click();
  await expect(page).toHaveURL(/\/canceled\?checkout=/);
  await expect(page.getByRole('heading', { name: 'Payment canceled' })).toBeVisible();
  await expect(page.getByText('Nothing was charged.')).toBeVisible();
  expect(await available(page, 'wireless-keypad')).toBe(before);

  // The cart is kept for another try.
  await page.getByRole('link', { name: 'Back to the cart' }).click();
  await expect(
    page.getByRole('list', { name: 'Items in the cart' }).getByText('Wireless Keypad'),
  ).toBeVisible();
});

test('an admin of a lapsed portal upgrades it to Pro, and the banner goes away', async ({ page }) => {
  await signIn(page, lapsedAdmin.email, lapsedAdmin.password);
  await expect(page).toHaveURL(/\/app/);
  const banner = page.getByRole('alert').filter({ hasText: 'The Pro plan of this portal is not paid' });
  await expect(banner).toBeVisible();

  await banner.getByRole('link', { name: 'Renew the plan' }).click();
  await expect(page).toHaveURL(/\/app\/upgrade$/);
  await expect(page.locator('main').getByText('Not paid', { exact: true })).toBeVisible();
  await page.getByRole('region', { name: 'Pro' }).getByRole('button', { name: 'Renew Pro' }).click();

  await expect(page).toHaveURL(/\/api3\/sandbox-pay\/cs_test_sbx_/);
  await expect(page.getByText('2 × Latchkey Pro')).toBeVisible(); // per lock: the portal has two
  await enterCard(page, '4242 4242 4242 4242');
  await expect(page).toHaveURL(/\/success\?checkout=/);
  await expect(page.getByRole('heading', { name: 'Your portal is on Pro' })).toBeVisible();

  await page.getByRole('link', { name: 'Go to the app' }).click();
  await expect(page).toHaveURL(/\/app\/upgrade$/);
  await expect(page.locator('main').getByText('Paid up', { exact: true })).toBeVisible();
  await expect(page.getByText(/Renews on/)).toBeVisible();
  await expect(page.getByText('The Pro plan of this portal is not paid')).toHaveCount(0);
  await page.goto('/app/dashboard');
  await expect(page.getByRole('heading', { level: 1, name: 'Riverside Studios' })).toBeVisible();
  await expect(page.getByText('The Pro plan of this portal is not paid')).toHaveCount(0);
});
