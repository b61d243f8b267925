// Mail bodies: each template answers a subject, a plain-text body and an HTML body built from the
// same facts. Everything put into HTML goes through `escapeHtml`. Free text that people typed
// (portal, lock, guest and person names, alert titles) goes through `fact`: line breaks and other
// control characters become spaces and it is cut short, so nobody can write extra header lines,
// paragraphs or a whole message into a mail the portal sends in their name. Dates and times are
// written by the shared format (packages/shared/src/time-format.ts), as on the screens.

import { formatCalendarDate, zoneLabel, type Brand } from '@latchkey/shared';

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** How many characters of a typed name a subject shows, and a body. */
export const SUBJECT_FACT_LENGTH = 60;
export const BODY_FACT_LENGTH = 120;

// C0/C1 controls (line breaks included), line and paragraph separators, and the invisible
// direction marks and overrides that can make text read differently from what it is.
const UNSAFE_CHARACTERS = /[\p{Cc}\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

/** Typed text as a mail may show it: one line, no control characters, at most `max` characters. */
export function fact(value: string, max: number = BODY_FACT_LENGTH): string {
  const line = value.replace(UNSAFE_CHARACTERS, ' ').replace(/\s+/g, ' ').trim();
  const characters = Array.from(line); // by code point, so an emoji is never cut in half
  return characters.length > max
    ? `${characters
        .slice(0, max - 1)
        .join('')
        .trimEnd()}…`
    : line;
}

/** The footer every mail ends with; `brandMail` names the portal's brand there instead. */
const SIGNATURE = '<p style="color:#868e96;font-size:12px">Sent by Latchkey.</p>';
const BODY_OPEN = /^(<!doctype html><html><body[^>]*>)/;

/**
 * A rendered mail in the brand of the portal it is about (brief §1: a reseller's customers see the
 * reseller's brand): the brand's logo above the message and its name in the footer. The logo's
 * address is site-relative here; the mail sender makes it absolute with PUBLIC_URL on its way out.
 */
export function brandMail(html: string, brand: Brand): string {
  const logo = `<p style="margin:0 0 16px"><img src="${escapeHtml(brand.mailLogo)}" alt="${escapeHtml(brand.name)}" height="32" style="height:32px;width:auto"></p>`;
  return html
    .replace(BODY_OPEN, `$1${logo}`)
    .replace(SIGNATURE, `<p style="color:#868e96;font-size:12px">Sent by ${escapeHtml(brand.name)}.</p>`);
}

/** Site-relative image addresses (the brand's logo) made absolute for a mail client. */
export function absoluteMailImages(html: string, publicUrl: string): string {
  return html.replace(/ src="\/brands\//g, ` src="${publicUrl.replace(/\/$/, '')}/brands/`);
}

function layout(title: string, paragraphs: string[]): string {
  const body = paragraphs.map((p) => `<p style="margin:0 0 12px">${p}</p>`).join('');
  return `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#1a1b1e;max-width:560px;margin:24px auto;padding:0 16px"><h1 style="font-size:20px">${escapeHtml(title)}</h1>${body}${SIGNATURE}</body></html>`;
}

/** A guest's access code for one lock, with when it works. */
export function deviceInvitationMail(facts: {
  guestName: string;
  portalName: string;
  lockName: string;
  code: string;
  /** e.g. "Mon–Fri 09:00–17:00" */
  when: string;
  startDate: string;
  endDate: string;
  timeZone: string;
}): RenderedMail {
  const subject = `Your access code for ${fact(facts.lockName, SUBJECT_FACT_LENGTH)}`;
  const lines = [
    `Hello ${fact(facts.guestName)},`,
    `${fact(facts.portalName)} invited you to ${fact(facts.lockName)}.`,
    `Your access code: ${facts.code}`,
    `It works ${facts.when} ${zoneLabel(facts.timeZone)}, from ${formatCalendarDate(facts.startDate)} to ${formatCalendarDate(facts.endDate)}.`,
    'Enter the code on the keypad, then press the lock key.',
  ];
  const html = layout(subject, [
    escapeHtml(lines[0]!),
    escapeHtml(lines[1]!),
    `Your access code: <strong style="font-size:20px;letter-spacing:2px">${escapeHtml(facts.code)}</strong>`,
    escapeHtml(lines[3]!),
    escapeHtml(lines[4]!),
  ]);
  return { subject, text: `${lines.join('\n\n')}\n`, html };
}

function linkMail(facts: {
  title: string;
  greeting: string;
  lines: string[];
  action: string;
  link: string;
}): RenderedMail {
  const text = [facts.greeting, ...facts.lines, `${facts.action}: ${facts.link}`].join('\n\n');
  const html = layout(facts.title, [
    escapeHtml(facts.greeting),
    ...facts.lines.map(escapeHtml),
    `<a href="${escapeHtml(facts.link)}" style="display:inline-block;background:#1c7ed6;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none">${escapeHtml(facts.action)}</a>`,
    `Or open this link: ${escapeHtml(facts.link)}`,
  ]);
  return { subject: facts.title, text: `${text}\n`, html };
}

/** Confirms that the address belongs to the person (sent at sign-up and on request). */
export function verificationMail(facts: { name: string; link: string }): RenderedMail {
  return linkMail({
    title: 'Confirm your email address for Latchkey',
    greeting: `Hello ${fact(facts.name)},`,
    lines: ['Please confirm that this is your email address. The link works for 24 hours.'],
    action: 'Confirm my email address',
    link: facts.link,
  });
}

/** A link to choose a new password. */
export function passwordResetMail(facts: { name: string; link: string }): RenderedMail {
  return linkMail({
    title: 'Reset your Latchkey password',
    greeting: `Hello ${fact(facts.name)},`,
    lines: [
      'Someone asked to reset the password of your Latchkey account. The link works once, for 60 minutes.',
      'If it was not you, ignore this mail: your password stays as it is.',
    ],
    action: 'Choose a new password',
    link: facts.link,
  });
}

/** A guest asked to keep their stay in an account: the link where they choose its password. */
export function stayAccountMail(facts: {
  guestName: string;
  listingTitle: string;
  link: string;
}): RenderedMail {
  return linkMail({
    title: 'Keep your stay in a Latchkey account',
    greeting: `Hello ${fact(facts.guestName)},`,
    lines: [
      `Someone asked to keep your stay at ${fact(facts.listingTitle)} in a Latchkey account for this address. Follow the link to choose your password; it works once, for 24 hours.`,
      'If it was not you, ignore this mail: no account is made.',
    ],
    action: 'Choose my password',
    link: facts.link,
  });
}

/** An invitation to a portal: a new person chooses a password, an existing one signs in and accepts. */
export function invitationMail(facts: {
  portalName: string;
  invitedBy: string;
  role: string;
  link: string;
  newAccount: boolean;
  days: number;
}): RenderedMail {
  return linkMail({
    title: `You are invited to ${fact(facts.portalName, SUBJECT_FACT_LENGTH)} on Latchkey`,
    greeting: 'Hello,',
    lines: [
      `${fact(facts.invitedBy)} invited you to join ${fact(facts.portalName)} as ${facts.role === 'admin' ? 'an admin' : 'a member'}.`,
      facts.newAccount
        ? `Accept to choose your password. The invitation can be accepted for ${facts.days} days.`
        : `Sign in with your Latchkey account to accept. The invitation can be accepted for ${facts.days} days.`,
    ],
    action: 'See the invitation',
    link: facts.link,
  });
}

/** An alert rule fired (notificationAndAlert): what happened, and where to see every alert. */
export function alertMail(facts: { title: string; message: string; link: string }): RenderedMail {
  return linkMail({
    title: `Latchkey alert: ${fact(facts.title, SUBJECT_FACT_LENGTH)}`,
    greeting: 'Hello,',
    lines: [
      fact(facts.title, 200),
      fact(facts.message, 500),
      'You get this mail because you are an admin of the portal.',
    ],
    action: 'See the alerts',
    link: facts.link,
  });
}

/** A scheduled report (features/reports): what it covers, the files attached, where to see it. */
export function scheduledReportMail(facts: {
  title: string;
  portalName: string;
  period: string;
  attached: string[];
  notAttached: string | null;
  link: string;
}): RenderedMail {
  return linkMail({
    title: `${fact(facts.title, SUBJECT_FACT_LENGTH)}: ${fact(facts.period, 40)}`,
    greeting: 'Hello,',
    lines: [
      `The ${fact(facts.title, 200)} report of ${fact(facts.portalName)} for ${fact(facts.period, 60)}.`,
      ...(facts.attached.length ? [`Attached: ${facts.attached.join(', ')}.`] : []),
      ...(facts.notAttached ? [facts.notAttached] : []),
      'You get this mail because an admin of the portal scheduled this report to you.',
    ],
    action: 'Open the reports',
    link: facts.link,
  });
}
