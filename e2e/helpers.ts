import { expect, type Page } from '@playwright/test';

export const demo = {
  admin: { email: 'admin@demo.latchkey.dev', password: 'demo-admin-pass' },
  user: { email: 'user@demo.latchkey.dev', password: 'demo-user-pass' },
};

/** Signs in through the login form at the root path. */
export async function signIn(page: Page, email: string, password: string) {
  await page.goto('/');
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.getByLabel('Email').fill(email);
  await form.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await form.getByRole('button', { name: 'Sign in' }).click();
}

/** Signs out through the account menu. */
export async function signOut(page: Page) {
  await page.getByRole('button', { name: /^Account menu for/ }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/$/);
}

/**
 * Hands the browser to the next person of a journey: forgets this browser's session and returns to
 * the sign-in page. Signing out ends every session of the person (auth/logout), and the demo
 * accounts are signed in by the other worker's journeys at the same time: a journey that signed
 * the demo admin out broke whichever journey was then walking the portal as the demo admin.
 */
export async function forgetSignIn(page: Page) {
  await page.evaluate(() => window.localStorage.clear());
  await page.goto('/');
  await expect(page.getByRole('form', { name: 'Sign in' })).toBeVisible();
}

/** Calls the API from the signed-in browser with its stored token, as an attacker would. */
export function callApiAsPage(page: Page, path: string, init: { method?: string; portal?: string } = {}) {
  return page.evaluate(
    async ({ path, init }) => {
      const token = localStorage.getItem('authToken') ?? '';
      const headers: Record<string, string> = { authorization: `Bearer ${token.replace(/^"|"$/g, '')}` };
      if (init.portal) headers['x-portal-override'] = init.portal;
      const response = await fetch(`/api3/${path}`, { method: init.method ?? 'GET', headers });
      return { status: response.status, body: await response.json() };
    },
    { path, init },
  );
}

/**
 * Waits for the page's running CSS transitions to end: Mantine fades colours over 100-150 ms when
 * the colour scheme changes, and contrast is measured once they have.
 */
export async function colourTransitionsEnded(page: Page) {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation instanceof CSSTransition)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
}
