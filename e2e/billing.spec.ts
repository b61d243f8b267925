import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { callApiAsPage, demo, signIn } from './helpers';

// Bills as the demo admin sees them: last month's closed bill (the demo closes it), its lines and
// the locks behind them, the printable invoice and the PDF the server makes, read back with
// pdftotext (Debian's poppler-utils). The expected amounts are worked out here from the lock-days.

const euro = (minor: number) => `€${(minor / 100).toFixed(2)}`;
/** round(n / d), halves up, as the bill rounds. */
const roundDiv = (n: number, d: number) => Math.floor((2 * n + d) / (2 * d));

function lastMonth(now = new Date()) {
  const year = now.getUTCMonth() === 0 ? now.getUTCFullYear() - 1 : now.getUTCFullYear();
  const month = now.getUTCMonth() === 0 ? 12 : now.getUTCMonth();
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const name = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(Date.UTC(year, month - 1, 1)),
  );
  return { year, month, days, name };
}

function pdfText(file: string): string {
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
}

test('an admin reads last month’s bill line by line, prints the invoice and gets its PDF with the right totals', async ({
  page,
}) => {
  const month = lastMonth();
  await signIn(page, demo.admin.email, demo.admin.password);
  await expect(page).toHaveURL(/\/app/);

  // On a window too short for the whole menu its lower sections start folded (docs/decisions.md,
  // "Where things are"): open "Billing & shop" as a person would.
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  const section = nav.getByRole('button', { name: 'Billing & shop' });
  await expect(section).toBeVisible();
  if ((await section.getAttribute('aria-expanded')) === 'false') await section.click();
  await nav.getByRole('link', { name: 'Billing' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Billing' })).toBeVisible();
  const pastBills = page.getByRole('region', { name: 'Past bills' });
  await pastBills.getByRole('link', { name: month.name, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/app/billing/${month.year}/${month.month}$`));
  await expect(page.getByRole('heading', { level: 1, name: month.name })).toBeVisible();

  // The demo portal was on Business all month (it runs rentals): its locks all month, Flat 1.2 and Lisbon studio from the 11th.
  const lines = page.getByRole('list', { name: 'Bill lines' });
  await expect(lines.getByText('Business plan, ')).toBeVisible();
  await lines.getByRole('button', { name: /^Show the \d+ locks and their days$/ }).click();
  const rows = lines.getByRole('row');
  await expect(rows.filter({ hasText: 'Flat 1.2' })).toContainText(String(month.days - 10));
  await expect(rows.filter({ hasText: 'Main entrance' })).toContainText(String(month.days));

  // The amounts follow from the lock-days: round(lock-days × €7.00 ÷ days), 19 % VAT on the net.
  const { body: bill } = await callApiAsPage(page, `portal/billing/${month.year}/${month.month}`);
  const lockDays = bill.lines[0].locks.reduce((sum: number, lock: { days: number }) => sum + lock.days, 0);
  const net = roundDiv(lockDays * 700, month.days);
  const vat = roundDiv(net * 1900, 10_000);
  expect(bill).toMatchObject({ netMinor: net, vatMinor: vat, totalMinor: net + vat, status: 'closed' });
  const totals = page.getByRole('table', { name: 'Totals' });
  await expect(totals.getByRole('row', { name: /^Total/ })).toContainText(euro(net + vat));

  await page.getByRole('link', { name: 'Printable invoice' }).click();
  await expect(page).toHaveURL(/\/print\/bill\//);
  const invoice = page.getByRole('article', { name: `Invoice ${bill.invoiceNumber}` });
  await expect(invoice).toBeVisible();
  await expect(invoice.getByRole('table', { name: 'Totals' })).toContainText(euro(net + vat));
  // Printing shows the document alone: the buttons above it are for the screen.
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByRole('button', { name: 'Download PDF' })).toBeHidden();
  await page.emulateMedia({ media: 'screen' });

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download PDF' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`${bill.invoiceNumber}.pdf`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'latchkey-e2e-pdf-'));
  try {
    const file = path.join(dir, 'invoice.pdf');
    await download.saveAs(file);
    const text = pdfText(file);
    expect(text).toContain(`Invoice number: ${bill.invoiceNumber}`);
    expect(text).toMatch(new RegExp(`Net\\s+${euro(net).replace('.', '\\.')}`));
    expect(text).toMatch(new RegExp(`VAT 19 %\\s+${euro(vat).replace('.', '\\.')}`));
    expect(text).toMatch(new RegExp(`Total\\s+${euro(net + vat).replace('.', '\\.')}`));
    expect(text).toContain(`Flat 1.2: ${month.days - 10} days`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a reseller sees its customers’ month, and only theirs', async ({ page }) => {
  await signIn(page, 'reseller@demo.latchkey.dev', 'demo-reseller-pass');
  await expect(page).toHaveURL(/\/app/);
  await page.goto('/app/reseller');
  await expect(page.getByRole('heading', { level: 1, name: 'Keystone Integrators' })).toBeVisible();
  const month = lastMonth();
  await page.getByRole('button', { name: 'Previous month' }).click();
  const summary = page.getByRole('region', { name: `Billing summary: ${month.name}` });
  await expect(summary.getByRole('rowheader', { name: /Lakeside Clinic/ })).toBeVisible();
  await expect(summary.getByRole('rowheader', { name: /Harbor Offices/ })).toBeVisible();
  await expect(summary.getByText('Demo Apartments')).toHaveCount(0);

  // A customer that allows billing only: acting in it is refused, whatever the browser sends.
  const { body: account } = await callApiAsPage(page, 'reseller');
  const names = account.customers.map((c: { name: string }) => c.name).sort();
  expect(names).toEqual(['Harbor Offices', 'Lakeside Clinic']);
  const harbor = account.customers.find((c: { name: string }) => c.name === 'Harbor Offices');
  const refused = await callApiAsPage(page, 'portal/devices', { portal: harbor.portalId });
  expect(refused.status).toBe(403);

  // It acts in Lakeside Clinic, whose owner allows it.
  await page
    .getByRole('list', { name: 'Customers' })
    .getByRole('button', { name: 'Act in this portal: Lakeside Clinic' })
    .click();
  await expect(page).toHaveURL(/\/app\/dashboard/);
  await expect(page.getByRole('banner').getByText('Lakeside Clinic')).toBeVisible();
});
