import { describeQuote, formatCalendarDate, formatRange, type StayQuote } from '@latchkey/shared';
import { escapeHtml, fact, SUBJECT_FACT_LENGTH, type RenderedMail } from '../../base/mail/mail.templates';

// Mail of the rental flow. Typed text (listing titles, guest names, reasons) goes through `fact`,
// as in mail.templates.ts, and everything in HTML through `escapeHtml`.

function render(subject: string, lines: string[], strong?: { label: string; value: string }): RenderedMail {
  const text = [...lines, ...(strong ? [`${strong.label}: ${strong.value}`] : [])].join('\n\n');
  const paragraphs = lines.map((line) => `<p style="margin:0 0 12px">${escapeHtml(line)}</p>`);
  if (strong) {
    paragraphs.splice(
      2,
      0,
      `<p style="margin:0 0 12px">${escapeHtml(strong.label)}: <strong style="font-size:20px;letter-spacing:2px">${escapeHtml(strong.value)}</strong></p>`,
    );
  }
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#1a1b1e;max-width:560px;margin:24px auto;padding:0 16px"><h1 style="font-size:20px">${escapeHtml(subject)}</h1>${paragraphs.join('')}<p style="color:#868e96;font-size:12px">Sent by Latchkey.</p></body></html>`;
  return { subject, text: `${text}\n`, html };
}

/** A stay's first and last day ('YYYY-MM-DD') as the mails write them: "Dec 17, 2026". */
const day = (date: string) => formatCalendarDate(date);

interface StayFactsForMail {
  guestName: string;
  listingTitle: string;
  startDate: string;
  endDate: string;
}

/** To the requester: the request arrived (or was accepted at once). */
export function requestReceivedMail(facts: StayFactsForMail & { approved: boolean }): RenderedMail {
  const title = fact(facts.listingTitle, SUBJECT_FACT_LENGTH);
  return render(
    facts.approved ? `Your stay at ${title} is booked` : `We received your request for ${title}`,
    [
      `Hello ${fact(facts.guestName)},`,
      facts.approved
        ? `Your stay at ${fact(facts.listingTitle)} from ${day(facts.startDate)} to ${day(facts.endDate)} is booked.`
        : `You asked to stay at ${fact(facts.listingTitle)} from ${day(facts.startDate)} to ${day(facts.endDate)}. The host will answer soon.`,
      facts.approved
        ? 'Your access code follows in a second mail once the lock has confirmed it.'
        : 'If you did not ask for this, ignore this mail: nothing happens without the host.',
    ],
  );
}

/** To the people who look after the listing: a request to answer. */
export function newRequestMail(
  facts: StayFactsForMail & { link: string; approved: boolean; quote: StayQuote | null },
): RenderedMail {
  const title = fact(facts.listingTitle, SUBJECT_FACT_LENGTH);
  return render(facts.approved ? `New booking for ${title}` : `New request for ${title}`, [
    `${fact(facts.guestName)} ${facts.approved ? 'booked' : 'asks for'} ${fact(facts.listingTitle)} from ${day(facts.startDate)} to ${day(facts.endDate)}.`,
    // The total the request page showed the guest; no payment is taken through the portal.
    facts.quote
      ? `Quoted on the request page: ${describeQuote(facts.quote)} (not paid through Latchkey).`
      : 'The listing has no price: the guest saw "Price on request".',
    `${facts.approved ? 'See it' : 'Approve or decline it'}: ${facts.link}`,
  ]);
}

/** To the guest, once every lock has confirmed their code: the access is ready. */
export function accessReadyMail(
  facts: StayFactsForMail & {
    code: string;
    accessFrom: string;
    accessUntil: string;
    timeZone: string;
    link: string;
    changed: boolean;
  },
): RenderedMail {
  const title = fact(facts.listingTitle, SUBJECT_FACT_LENGTH);
  return render(
    facts.changed ? `Your access to ${title} has changed` : `Your access to ${title} is ready`,
    [
      `Hello ${fact(facts.guestName)},`,
      facts.changed
        ? `The host changed your stay at ${fact(facts.listingTitle)}; the locks have your new times.`
        : `The locks of ${fact(facts.listingTitle)} have confirmed your access.`,
      // The same words and clock as the stay page: on the locks' clock, the zone named.
      `It works ${formatRange(facts.accessFrom, facts.accessUntil, facts.timeZone, { weekday: true, zone: true })}.`,
      'Enter the code on the keypad, or show the QR code from your stay page at the reader.',
      `Arrival instructions and your QR code: ${facts.link}`,
    ],
    { label: 'Your access code', value: facts.code },
  );
}

/** To the requester: the host declined. */
export function requestDeclinedMail(facts: StayFactsForMail & { reason: string }): RenderedMail {
  const title = fact(facts.listingTitle, SUBJECT_FACT_LENGTH);
  return render(`Your request for ${title} was declined`, [
    `Hello ${fact(facts.guestName)},`,
    `The host cannot take your stay at ${fact(facts.listingTitle)} from ${day(facts.startDate)} to ${day(facts.endDate)}.`,
    `Their reason: ${fact(facts.reason, 500)}`,
  ]);
}

/** To the guest: the host cancelled the stay; the code no longer works. */
export function stayCancelledMail(facts: StayFactsForMail & { reason: string }): RenderedMail {
  const title = fact(facts.listingTitle, SUBJECT_FACT_LENGTH);
  return render(`Your stay at ${title} was cancelled`, [
    `Hello ${fact(facts.guestName)},`,
    `The host cancelled your stay at ${fact(facts.listingTitle)} from ${day(facts.startDate)} to ${day(facts.endDate)}. Your access code no longer works.`,
    ...(facts.reason ? [`Their reason: ${fact(facts.reason, 500)}`] : []),
  ]);
}

/** To the guest, once after check-out: how was it? A link to review the stay (R2). */
export function reviewInviteMail(facts: StayFactsForMail & { link: string; closesOn: string }): RenderedMail {
  const title = fact(facts.listingTitle, SUBJECT_FACT_LENGTH);
  return render(`How was your stay at ${title}?`, [
    `Hello ${fact(facts.guestName)},`,
    `Thank you for staying at ${fact(facts.listingTitle)} from ${day(facts.startDate)} to ${day(facts.endDate)}.`,
    `Tell the host and future guests how it was: ${facts.link}`,
    `Reviews are taken until ${day(facts.closesOn)}. Your first name and the month of your stay are shown with it.`,
  ]);
}
