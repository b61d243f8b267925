/**
 * npm run bench:screens (issue 19, item 10): how long each of the operator's screens takes to show
 * its content after a person navigates to it inside the app, on this machine, in Debian's Chromium.
 * The built web app (`npm run build` first) is served by the real server on the demo portal.
 *
 * Two ways of reaching each screen, both timed to the first frame that shows the screen's heading
 * with no loader left in it, median and worst of SCREEN_RUNS (3), against the bound of 1 s:
 * - in the app: the dashboard opened in a new page (so the screen's code and data are not yet in
 *   the page, as on a person's first visit to it in a session; the HTTP cache is warm, as it is
 *   after the first load), then a navigation inside the app as a link makes;
 * - first load: the screen's address opened in a new browser context holding only the signed-in
 *   session (a cold HTTP cache, as a bookmark or a mailed link on a new day), timed from the start
 *   of the navigation. Not a test: it prints figures; docs/benchmarks.md
 * records a run. The machine's load average is printed with them: on a busy machine every figure
 * grows.
 *
 * Environment: SCREEN_WEB_DIST (the build, apps/web/dist), SCREEN_RUNS, SCREEN_ONLY (a substring:
 * measure the matching screens only), CHROME_PATH (/usr/bin/chromium).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext } from '@playwright/test';
import { REPO, signInDemoAdmin, startServer, stopServer } from './web-app-server';

const WEB_DIST = path.resolve(process.env.SCREEN_WEB_DIST ?? path.join(REPO, 'apps/web/dist'));
const RUNS = Math.max(1, Number(process.env.SCREEN_RUNS ?? 3));
const ONLY = process.env.SCREEN_ONLY;
const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';
/** Issue 19, item 10: every screen shows its content within 1 s of navigation. */
const BOUND_MS = 1000;

/** A screen by its path, or the first record of a list (its first link matching `record`). */
type Screen = string | { list: string; record: string };

const SCREENS: Screen[] = [
  '/app/activity',
  '/app/device',
  '/app/offline',
  '/app/notificationAndAlert',
  '/app/user',
  '/app/group',
  '/app/cards',
  '/app/lockout',
  '/app/keys',
  '/app/access-codes',
  '/app/adminChangeLog',
  '/app/about',
  '/app/upgrade',
  '/app/products',
  '/app/orders',
  '/app/settings',
  '/app/billing',
  '/app/reseller',
  '/app/rentalcenter',
  '/app/listing',
  '/sync/center',
  { list: '/app/device', record: 'a[href^="/app/device/"]' },
  { list: '/app/user', record: 'a[href^="/app/user/"]' },
  { list: '/app/group', record: 'a[href^="/app/group/"]' },
  { list: '/app/billing', record: 'a[href^="/app/billing/"]' },
  { list: '/app/listing', record: 'a[href^="/app/listing/"]:not([href*="/edit/"])' },
];

/** The path of a screen on this server (a record's path is read from its list once). */
async function pathOf(context: BrowserContext, origin: string, screen: Screen): Promise<string> {
  if (typeof screen === 'string') return screen;
  const page = await context.newPage();
  try {
    await page.goto(origin + screen.list);
    const link = page.locator(`main ${screen.record}`).first();
    await link.waitFor();
    return (await link.getAttribute('href'))!;
  } finally {
    await page.close();
  }
}

/**
 * Milliseconds from an in-app navigation to `target` (as a link does: history, then the router) to
 * the first frame that shows the new screen's heading and no loader.
 */
async function timeNavigation(context: BrowserContext, origin: string, target: string): Promise<number> {
  const page = await context.newPage();
  try {
    await page.goto(`${origin}/app/dashboard`);
    await page.locator('main h1').first().waitFor();
    await page.waitForLoadState('networkidle');
    const start = await page.locator('main h1').first().textContent();
    if (start === 'Something went wrong') throw new Error('the dashboard shows its error screen');
    const handle = await page.waitForFunction(
      // Runs in the page; the first call starts the clock and navigates, later ones (each frame)
      // check whether the new screen is there.
      (to) => {
        const state = window as unknown as { __navStart?: number; __from?: string };
        if (state.__navStart === undefined) {
          state.__from = document.querySelector('main h1')?.textContent ?? '';
          state.__navStart = performance.now();
          window.history.pushState({}, '', to);
          window.dispatchEvent(new PopStateEvent('popstate'));
          return false;
        }
        const main = document.querySelector('main');
        const heading = main?.querySelector('h1')?.textContent ?? '';
        const loading =
          document.querySelector('[role="progressbar"]') ??
          document.querySelector('[role="status"][aria-label^="Loading"]') ??
          main?.querySelector('.mantine-Skeleton-root, [data-loading="true"]');
        // The app's error screen ends the wait too: the bench reports it instead of timing out.
        if (heading === 'Something went wrong') return -1;
        if (!main || !heading || heading === state.__from || loading) return false;
        return performance.now() - state.__navStart;
      },
      target,
      { polling: 'raf', timeout: 30_000 },
    );
    const ms = (await handle.jsonValue()) as number;
    if (ms < 0) throw new Error(`${target} shows the app's error screen`);
    return ms;
  } finally {
    await page.close();
  }
}

/** Milliseconds from the start of a cold page load of `target` to its content (see above). */
async function timeFirstLoad(
  browser: Browser,
  session: Awaited<ReturnType<BrowserContext['storageState']>>,
  origin: string,
  target: string,
): Promise<number> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, storageState: session });
  try {
    const page = await context.newPage();
    await page.goto(origin + target, { waitUntil: 'domcontentloaded' });
    const handle = await page.waitForFunction(
      () => {
        const main = document.querySelector('main');
        const heading = main?.querySelector('h1')?.textContent ?? '';
        if (heading === 'Something went wrong') return -1;
        const loading =
          document.querySelector('[role="progressbar"]') ??
          document.querySelector('[role="status"][aria-label^="Loading"]') ??
          main?.querySelector('.mantine-Skeleton-root, [data-loading="true"]');
        if (!main || !heading || loading) return false;
        return performance.now();
      },
      undefined,
      { polling: 'raf', timeout: 30_000 },
    );
    const ms = (await handle.jsonValue()) as number;
    if (ms < 0) throw new Error(`${target} shows the app's error screen`);
    return ms;
  } finally {
    await context.close();
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

async function main(): Promise<void> {
  if (!fs.existsSync(path.join(WEB_DIST, 'index.html'))) {
    console.error(`No build in ${WEB_DIST}: run \`npm run build\` first.`);
    process.exit(1);
  }
  const server = await startServer(WEB_DIST);
  const browser = await chromium.launch({
    executablePath: CHROME_PATH,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-sync'],
  });
  const loadBefore = os.loadavg()[0]!;
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await signInDemoAdmin(context, server.origin);
    const session = await context.storageState();
    const rows: { path: string; inApp: number[]; firstLoad: number[] }[] = [];
    for (const screen of SCREENS) {
      const target = await pathOf(context, server.origin, screen);
      if (ONLY && !target.includes(ONLY)) continue;
      const inApp: number[] = [];
      const firstLoad: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        inApp.push(await timeNavigation(context, server.origin, target));
        firstLoad.push(await timeFirstLoad(browser, session, server.origin, target));
      }
      rows.push({ path: target, inApp, firstLoad });
    }
    const loadAfter = os.loadavg()[0]!;
    console.log(
      `\nScreens: time to content, in the app and on a cold first load, Chromium ` +
        `${browser.version()}, 1440×900, median and worst of ${RUNS}; load average ` +
        `${loadBefore.toFixed(1)} → ${loadAfter.toFixed(1)}\n`,
    );
    const cell = (times: number[]) => `${Math.round(median(times))} / ${Math.round(Math.max(...times))}`;
    const within = (times: number[]) => median(times) <= BOUND_MS;
    console.log('| screen | in the app, median / worst ms | first load, median / worst ms | within 1 s |');
    console.log('|---|---|---|---|');
    for (const row of rows) {
      const ok = within(row.inApp) && within(row.firstLoad);
      console.log(`| ${row.path} | ${cell(row.inApp)} | ${cell(row.firstLoad)} | ${ok ? 'yes' : 'NO'} |`);
    }
    const over = rows.filter((row) => !within(row.inApp) || !within(row.firstLoad));
    console.log(
      over.length === 0
        ? `\nEvery screen showed its content within ${BOUND_MS} ms (median), both ways.`
        : `\n${over.length} of ${rows.length} screens took over ${BOUND_MS} ms (median) one way or both: NOT MET.`,
    );
  } finally {
    await browser.close();
    await stopServer(server);
  }
}

await main();
