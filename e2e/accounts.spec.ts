import { execFileSync } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { callApiAsPage, demo, forgetSignIn, signIn, signOut } from './helpers';
import { linkTo, waitForMail } from './mailbox';

// Mail goes over real SMTP to the mail catcher; TOTP codes come from oathtool, an implementation
// independent of the server's.

/** The TOTP code of a base32 key, `offsetSeconds` from now. */
function totp(key: string, offsetSeconds = 0): string {
  const at = new Date(Date.now() + offsetSeconds * 1000).toISOString();
  return execFileSync('oathtool', ['--totp', '--base32', `--now=${at}`, key], { encoding: 'utf8' }).trim();
}

test('a new operator confirms their email from the mail, turns on two-factor sign-in, and must give a code to sign in', async ({
  page,
}) => {
  const email = `guarded-${Date.now()}@example.com`;
  const password = 'a guarded passphrase';
  await page.goto('/signup');
  const signup = page.getByRole('form', { name: 'Create your account' });
  await signup.getByLabel('First name').fill('Gus');
  await signup.getByLabel('Last name').fill('Guarded');
  await signup.getByLabel('Email').fill(email);
  await signup.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await signup.getByLabel('Portal name').fill('Guarded Gate');
  await signup.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/app\/dashboard$/);
  await expect(page.getByText('Confirm your email address')).toBeVisible();

  // The verification mail arrives over SMTP; its link confirms the address.
  const verification = await waitForMail(email, /Confirm your email address/);
  await page.goto(linkTo(verification, '/verify'));
  await expect(page.getByRole('heading', { name: 'Email address confirmed' })).toBeVisible();
  expect((await callApiAsPage(page, 'auth')).body.user.emailVerified).toBe(true);

  // Two-factor sign-in: the key shown beside the QR code goes into "the app" (oathtool).
  await page.goto('/app/settings');
  const key = (await page.getByLabel('Can’t scan? Enter this key').textContent())!.replace(/\s/g, '');
  expect(key).toMatch(/^[A-Z2-7]{16,}$/);
  const turnOn = page.getByRole('form', { name: 'Turn on two-factor sign-in' });
  await turnOn.getByLabel('Code from the app').fill(totp(key));
  await turnOn.getByRole('button', { name: 'Turn on' }).click();
  const recovery = page.getByRole('dialog', { name: 'Save your recovery codes' });
  await expect(recovery.getByLabel('Recovery codes').getByText(/^[a-z2-7]{5}-[a-z2-7]{5}$/)).toHaveCount(10);
  await recovery.getByLabel('I have saved them').check();
  await recovery.getByRole('button', { name: 'Done' }).click();
  await signOut(page);

  // Sign-in now asks for a code; a wrong one is refused, the right one signs in. The code of the
  // next time step is used, because the one that turned 2FA on may not be used twice.
  await signIn(page, email, password);
  const second = page.getByRole('form', { name: 'Two-factor sign-in' });
  await expect(second).toBeVisible();
  const right = totp(key, 30);
  const wrong = String((Number(right) + 1) % 1_000_000).padStart(6, '0');
  await second.getByLabel('6-digit code').fill(wrong);
  await second.getByRole('button', { name: 'Verify and sign in' }).click();
  await expect(second.getByText(/not valid/)).toBeVisible();
  await expect(page).toHaveURL(/\/$/);

  await second.getByLabel('6-digit code').fill(right);
  await second.getByRole('button', { name: 'Verify and sign in' }).click();
  await expect(page).toHaveURL(/\/app\/dashboard$/);
  await expect(page.getByRole('main')).toContainText('Guarded Gate');
});

test('an admin invites a person by email; they accept from the mail and land in the portal as admin', async ({
  page,
}) => {
  const email = `invitee-${Date.now()}@example.com`;
  await signIn(page, demo.admin.email, demo.admin.password);
  await expect(page).toHaveURL(/\/app\/dashboard$/);
  await page.goto('/app/user');
  await page.getByRole('button', { name: 'Add person' }).first().click();
  const invite = page.getByRole('form', { name: 'Add person' });
  await invite.getByLabel('Email').fill(email);
  await invite.getByLabel('First name').fill('Ines');
  await invite.getByLabel('Last name').fill('Invitee');
  await invite.getByText('Admin: runs the portal').click();
  await invite.getByRole('button', { name: 'Send invitation' }).click();
  await expect(invite).toBeHidden();
  await forgetSignIn(page);

  const mail = await waitForMail(email, /You are invited to Demo Apartments/);
  await page.goto(linkTo(mail, '/invite'));
  const answer = page.getByRole('form', { name: 'Answer the invitation' });
  await answer.getByRole('textbox', { name: 'Password', exact: true }).fill('an invited passphrase');
  await answer.getByRole('textbox', { name: 'Confirm password' }).fill('an invited passphrase');
  await answer.getByRole('button', { name: 'Accept and create account' }).click();

  await expect(page).toHaveURL(/\/app\/dashboard$/);
  await expect(page.getByRole('button', { name: 'Portal: Demo Apartments. Change portal' })).toBeVisible();
  const session = (await callApiAsPage(page, 'auth')).body;
  expect(session.user.email).toBe(email);
  expect(session.memberships).toContainEqual(
    expect.objectContaining({
      portal: expect.objectContaining({ name: 'Demo Apartments' }),
      role: 'admin',
      status: 'active',
    }),
  );
});
