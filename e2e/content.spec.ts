import crypto from 'node:crypto';
import { chromium, expect, test } from '@playwright/test';
import { launchMapping } from './chromium';
import { signIn } from './helpers';

// Issue 20, item 6: content pages and CMS mode, rendered safely, and the brand picked by host.

const staff = { email: 'staff@demo.latchkey.dev', password: 'demo-staff-pass' };

declare global {
  interface Window {
    __pwned?: unknown;
  }
}

test('staff edit the privacy page in CMS mode with a preview; a visitor gets the new text, with its script inert', async ({
  page,
  browser,
}) => {
  const marker = `Updated ${crypto.randomUUID().slice(0, 8)}`;
  await signIn(page, staff.email, staff.password);
  await expect(page).toHaveURL(/\/app/);

  // CMS mode is platform staff's, from the user menu (local-storage key cms).
  await page.getByRole('button', { name: /^Account menu for/ }).click();
  await page.getByRole('menuitem', { name: 'CMS mode Off' }).click();
  await expect(page.getByRole('menuitem', { name: 'CMS mode On' })).toBeVisible();
  await page.keyboard.press('Escape');
  // In CMS mode the navigation offers hide/show beside each entry.
  await expect(page.getByRole('button', { name: 'Hide Settings in the navigation' })).toBeVisible();

  await page.goto('/info/privacy');
  await page.getByRole('button', { name: 'Edit' }).click();
  const editor = page.getByRole('form', { name: 'Edit page' });
  const body = editor.getByRole('textbox', { name: 'Markdown' });
  await expect(body).toHaveValue(/# Privacy/);
  await body.fill(
    `# Privacy notice\n\n${marker}: we keep lock events for 90 days.\n\n` +
      '<script>window.__pwned = 1</script>\n\n<img src=x onerror="window.__pwned = 2">\n\n' +
      '[a trap](javascript:window.__pwned=3)',
  );
  // The live preview renders as the page will, through the same renderer.
  const preview = editor.getByRole('region', { name: 'Preview' });
  await expect(preview).toContainText(`${marker}: we keep lock events for 90 days.`);
  await editor.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText(/Saved as version \d+/)).toBeVisible();
  await expect(page.getByRole('article')).toContainText(marker);

  // The history says who saved it; an earlier version can be restored.
  await page.getByRole('button', { name: 'Edit' }).click();
  const history = page.getByRole('region', { name: 'Version history' });
  await expect(history.getByRole('row').nth(1)).toContainText('Stella Staff');
  await expect(history.getByRole('button', { name: /^Restore version \d+$/ }).first()).toBeVisible();
  await page.getByRole('button', { name: 'Cancel' }).click();

  // A visitor (a new browser context, signed out) reads the new text; nothing in it runs.
  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  const dialogs: string[] = [];
  visitor.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await visitor.goto('/info/privacy');
  const article = visitor.getByRole('article');
  await expect(article).toContainText(`${marker}: we keep lock events for 90 days.`);
  await expect(article.locator('script')).toHaveCount(0);
  await expect(article.locator('[onerror]')).toHaveCount(0);
  await expect(article.locator('a[href^="javascript:"]')).toHaveCount(0);
  // Give a broken image's error handler, had it survived, the time to fire.
  await visitor.waitForTimeout(300);
  expect(await visitor.evaluate(() => window.__pwned)).toBeUndefined();
  expect(dialogs).toEqual([]);
  // The edit controls are staff's: the visitor has none, and the footer links the legal pages.
  await expect(visitor.getByRole('button', { name: 'Edit' })).toHaveCount(0);
  await visitor.getByRole('navigation', { name: 'Legal' }).getByRole('link', { name: 'Terms' }).click();
  await expect(visitor.getByRole('heading', { level: 1, name: 'Terms of use' })).toBeVisible();
  await visitorContext.close();
});

test('a signed-in person finds the help topics and the legal pages under Help', async ({ page }) => {
  await signIn(page, 'user@demo.latchkey.dev', 'demo-user-pass');
  await expect(page).toHaveURL(/\/user/);
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Help' }).click();
  await page.getByRole('link', { name: 'When a lock is offline' }).click();
  await expect(page).toHaveURL(/\/info\/help-offline-locks$/);
  await expect(page.getByRole('heading', { level: 1, name: 'When a lock is offline' })).toBeVisible();
});

test('the brand follows the host: the Harbor Locks host shows its logo on the sign-in page', async () => {
  const port = Number(process.env.E2E_PORT ?? 3310);
  const host = 'portal.harborlocks.com';
  const browser = await chromium.launch(launchMapping(host));
  try {
    const page = await browser.newPage();
    await page.goto(`http://${host}:${port}/`);
    await expect(page.getByRole('form', { name: 'Sign in' })).toBeVisible();
    const logo = page.getByRole('img', { name: 'Harbor Locks' });
    await expect(logo).toBeVisible();
    await expect(logo).toHaveAttribute('src', '/brands/harbor-light.svg');
    // The dark colour scheme shows the dark variant.
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect(page.getByRole('img', { name: 'Harbor Locks' })).toHaveAttribute(
      'src',
      '/brands/harbor-dark.svg',
    );
    expect(await page.evaluate(() => fetch('/brands/harbor-dark.svg').then((r) => r.status))).toBe(200);

    // The default host keeps Latchkey's logo.
    await page.goto(`http://127.0.0.1:${port}/`);
    await expect(page.getByRole('img', { name: 'Latchkey' })).toBeVisible();
  } finally {
    await browser.close();
  }
});
