import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Download } from '@playwright/test';
import { axeViolations, COLOUR_RULES } from './axe';
import { colourTransitionsEnded, demo, signIn } from './helpers';

// Reports (issue 20, item 5): the demo admin runs the entries report for last week (the demo seeds
// three weeks of entries at Demo Apartments' locks), sees it with its chart and rows, and downloads
// the CSV and the PDF, the PDF read back with pdftotext (Debian's poppler-utils).

async function saved(download: Download, name: string): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'latchkey-e2e-report-'));
  const file = path.join(dir, name);
  await download.saveAs(file);
  return file;
}

test('an admin runs the entries report for last week, sees it, and downloads the CSV and the PDF', async ({
  page,
}) => {
  await signIn(page, demo.admin.email, demo.admin.password);
  await expect(page).toHaveURL(/\/app\/dashboard/);
  await page.getByRole('link', { name: 'Reports' }).first().click();
  await expect(page).toHaveURL(/\/app\/deviceanduserreports$/);
  await expect(page.getByRole('heading', { name: 'Reports', level: 1 })).toBeVisible();

  // Entries and last week are what the form starts with.
  await expect(page.getByRole('combobox', { name: 'Report' })).toHaveValue('Entries per lock and person');
  await expect(page.getByRole('combobox', { name: 'Period' })).toHaveValue('Last week');
  await page.getByRole('button', { name: 'Show report' }).click();

  const report = page.getByRole('region', { name: 'Report', exact: true });
  await expect(report.getByRole('heading', { name: 'Entries per lock and person' })).toBeVisible();
  await expect(report.getByText(/Demo Apartments · \w{3} \d{1,2}, \d{4} – /)).toBeVisible();
  await expect(report.getByText(/Times on each lock's clock: .*Europe\/Berlin/)).toBeVisible();
  await expect(report.getByRole('heading', { name: 'Entries per day' })).toBeVisible();
  const table = report.getByRole('table', { name: 'Entries per lock and person' });
  await expect(table).toContainText('Main entrance');
  expect(await table.getByRole('row').count()).toBeGreaterThan(5);
  await expect(report.getByRole('table', { name: 'Per person' })).toContainText('Sam Resident');
  // The report with its chart and tables passes WCAG 2.1 AA, in the light scheme and the dark.
  expect.soft(await axeViolations(page)).toEqual([]);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await colourTransitionsEnded(page); // Mantine's colour transitions end before contrast is measured
  expect.soft(await axeViolations(page, COLOUR_RULES)).toEqual([]);
  await page.emulateMedia({ colorScheme: 'light' });

  const [csvDownload] = await Promise.all([
    page.waitForEvent('download'),
    report.getByRole('button', { name: 'Download CSV' }).click(),
  ]);
  expect(csvDownload.suggestedFilename()).toMatch(/^entries-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = fs.readFileSync(await saved(csvDownload, 'report.csv'), 'utf8');
  const lines = csv.trim().split('\r\n');
  expect(lines[0]).toBe('Time (lock clock),Time zone,Lock,Person,Result,How,Why refused,Instant (UTC)');
  expect(lines.length).toBeGreaterThan(5);
  expect(csv).toContain('Europe/Berlin');
  expect(csv).not.toContain('Harbor Offices');

  const [pdfDownload] = await Promise.all([
    page.waitForEvent('download'),
    report.getByRole('button', { name: 'Download PDF' }).click(),
  ]);
  expect(pdfDownload.suggestedFilename()).toMatch(/^entries-.*\.pdf$/);
  const text = execFileSync('pdftotext', ['-layout', await saved(pdfDownload, 'report.pdf'), '-'], {
    encoding: 'utf8',
  });
  expect(text).toContain('Entries per lock and person');
  expect(text).toContain('Portal: Demo Apartments');
  expect(text).toContain("days on the portal's clock, Europe/Berlin");
  expect(text).toContain('Main entrance');
  expect(text).toContain("Times are on each lock's clock:");

  // The demo mails this report every week: it is listed with the schedules.
  await expect(page.getByRole('table', { name: 'Scheduled reports' })).toContainText('Weekly');
});
