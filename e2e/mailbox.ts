import { expect } from '@playwright/test';
import type { CaughtMail } from './mail-catcher';

/** Where playwright.config.ts runs the mail catcher's HTTP side. */
const mailboxUrl = process.env.E2E_MAILBOX_URL ?? 'http://127.0.0.1:3326';

/** Waits for the newest mail to an address whose subject matches, as delivered over SMTP. */
export async function waitForMail(to: string, subject: RegExp): Promise<CaughtMail> {
  let found: CaughtMail | undefined;
  await expect
    .poll(
      async () => {
        const messages = (await (await fetch(`${mailboxUrl}/messages`)).json()) as CaughtMail[];
        found = messages.findLast((mail) => mail.to.includes(to.toLowerCase()) && subject.test(mail.subject));
        return found?.subject;
      },
      { message: `a mail to ${to} matching ${subject}`, timeout: 20_000 },
    )
    .toMatch(subject);
  return found!;
}

/** The path and query of the link in a mail that leads to a page, e.g. "/verify?token=…". */
export function linkTo(mail: CaughtMail, pagePath: string): string {
  for (const link of mail.text.match(/https?:\/\/\S+/g) ?? []) {
    const url = new URL(link);
    if (url.pathname === pagePath) return `${url.pathname}${url.search}`;
  }
  throw new Error(`no link to ${pagePath} in "${mail.subject}":\n${mail.text}`);
}
