import { formatMoney } from '@latchkey/shared';
import { escapeHtml, fact, SUBJECT_FACT_LENGTH, type RenderedMail } from '../../base/mail/mail.templates';

// Mail about money: alerts to platform staff, a failed payment to a portal's owner, and the order
// confirmation. Typed text (names, addresses) goes through `fact`, HTML through `escapeHtml`.

function page(title: string, blocks: string[]): string {
  const body = blocks.map((block) => `<p style="margin:0 0 12px">${block}</p>`).join('');
  return `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#1a1b1e;max-width:560px;margin:24px auto;padding:0 16px"><h1 style="font-size:20px">${escapeHtml(title)}</h1>${body}<p style="color:#868e96;font-size:12px">Sent by Latchkey.</p></body></html>`;
}

function button(label: string, link: string): string {
  return `<a href="${escapeHtml(link)}" style="display:inline-block;background:#3F5B68;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none">${escapeHtml(label)}</a>`;
}

/** To platform staff: a webhook or payment went wrong. */
export function staffAlertMail(facts: { title: string; message: string; link: string }): RenderedMail {
  const subject = `Latchkey payments: ${fact(facts.title, SUBJECT_FACT_LENGTH)}`;
  const lines = [
    fact(facts.title, 200),
    fact(facts.message, 800),
    'You get this mail because you are platform staff.',
  ];
  return {
    subject,
    text: `${lines.join('\n\n')}\n\nSee every payment alert: ${facts.link}\n`,
    html: page(subject, [...lines.map(escapeHtml), button('See the payment alerts', facts.link)]),
  };
}

/** To a portal's owner: the plan's payment failed, and until when the portal stays paid up. */
export function paymentFailedMail(facts: {
  portalName: string;
  plan: string;
  paidUntil: string | null;
  link: string;
}): RenderedMail {
  const subject = `Your Latchkey payment for ${fact(facts.portalName, SUBJECT_FACT_LENGTH)} failed`;
  const lines = [
    'Hello,',
    `We could not take the payment for the ${facts.plan} plan of ${fact(facts.portalName)}.`,
    facts.paidUntil
      ? `The portal stays paid up until ${facts.paidUntil}. After that its locks keep working and keep the access they have, but nobody can add locks or people until it is paid.`
      : 'Until it is paid, its locks keep working and keep the access they have, but nobody can add locks or people.',
    'Please check the card on file.',
  ];
  return {
    subject,
    text: `${lines.join('\n\n')}\n\nChange the card: ${facts.link}\n`,
    html: page(subject, [...lines.map(escapeHtml), button('Change the card', facts.link)]),
  };
}

/** To the buyer: what they ordered, what it cost and where it goes. */
export function orderConfirmationMail(facts: {
  ref: string;
  lines: { name: string; quantity: number; lineTotal: number }[];
  subtotal: number;
  shippingName: string;
  shippingPrice: number;
  total: number;
  currency: string;
  address: { name: string; line1: string; line2: string; postalCode: string; city: string; country: string };
  minDays: number;
  maxDays: number;
  preRegisteredLocks: number;
  portalName: string | null;
  link: string;
}): RenderedMail {
  const money = (minor: number) => formatMoney(minor, facts.currency);
  const subject = `Your Latchkey order ${facts.ref}`;
  const items = facts.lines.map((line) => `${line.quantity} × ${fact(line.name)}: ${money(line.lineTotal)}`);
  const delivery =
    facts.minDays === facts.maxDays
      ? `${facts.minDays} working day${facts.minDays === 1 ? '' : 's'}`
      : `${facts.minDays}–${facts.maxDays} working days`;
  const address = [
    facts.address.name,
    facts.address.line1,
    facts.address.line2,
    `${facts.address.postalCode} ${facts.address.city}`,
    facts.address.country,
  ]
    .map((part) => fact(part))
    .filter(Boolean)
    .join(', ');
  const lines = [
    'Thank you for your order. We have your payment.',
    ...items,
    `Subtotal: ${money(facts.subtotal)}`,
    `${fact(facts.shippingName)}: ${money(facts.shippingPrice)}`,
    `Total paid: ${money(facts.total)} (VAT included)`,
    `Ships to: ${address}. Expected in ${delivery}.`,
    ...(facts.preRegisteredLocks > 0 && facts.portalName
      ? [
          `${facts.preRegisteredLocks} lock${facts.preRegisteredLocks === 1 ? ' is' : 's are'} already in ${fact(facts.portalName)}, marked "not yet connected" until you install ${facts.preRegisteredLocks === 1 ? 'it' : 'them'}.`,
        ]
      : []),
  ];
  return {
    subject,
    text: `${lines.join('\n')}\n\nOrder reference: ${facts.ref}\nSee your order: ${facts.link}\n`,
    html: page(subject, [
      ...lines.map(escapeHtml),
      `Order reference: <strong>${escapeHtml(facts.ref)}</strong>`,
      button('See your order', facts.link),
    ]),
  };
}
