import { API_BASE_PATH, formatMoney, hasNoControlCharacters, isWellFormedText } from '@latchkey/shared';
import { toIso } from '../../db/mappers';
import type { SandboxSessionRow } from '../../db/schema';
import { escapeHtml } from '../../base/mail/mail.templates';
import { SANDBOX_CARDS } from './sandbox-provider';

// The sandbox's hosted pages: plain HTML forms, no script, like a provider's checkout would be on
// its own domain. They work at phone width and with a keyboard and screen reader alone.

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1a1b1e;background:#f1f3f5}
main{max-width:460px;margin:0 auto;padding:24px 16px 48px}
.brand{display:flex;align-items:center;gap:8px;font-weight:700;color:#3F5B68;margin-bottom:16px}
.badge{font-size:12px;font-weight:600;background:#fff3bf;color:#5c3c00;border-radius:999px;padding:2px 10px}
.card{background:#fff;border-radius:12px;padding:20px;box-shadow:0 1px 3px rgba(0,0,0,.08);margin-bottom:16px}
h1{font-size:22px;margin:0 0 4px}
h2{font-size:16px;margin:0 0 12px}
.total{font-size:28px;font-weight:700;margin:4px 0 0}
table{width:100%;border-collapse:collapse;font-size:14px}
td{padding:6px 0;border-bottom:1px solid #e9ecef;vertical-align:top}
td.amount{text-align:right;white-space:nowrap;padding-left:12px}
label{display:block;font-weight:600;font-size:14px;margin:12px 0 4px}
input{width:100%;font:inherit;padding:10px 12px;border:1px solid #868e96;border-radius:8px;background:#fff;color:#1a1b1e}
input:focus{outline:3px solid #74c0fc;outline-offset:1px;border-color:#1c7ed6}
.row{display:flex;gap:12px}.row>div{flex:1}
button{width:100%;font:inherit;font-weight:700;margin-top:20px;padding:12px;border:0;border-radius:8px;background:#3F5B68;color:#fff;cursor:pointer}
button:focus{outline:3px solid #74c0fc;outline-offset:2px}
button.secondary{background:#fff;color:#3F5B68;border:1px solid #3F5B68;margin-top:12px}
.error{background:#fff5f5;border:1px solid #e03131;color:#a51111;border-radius:8px;padding:10px 12px;margin-bottom:12px}
.field-error{color:#c92a2a;font-size:14px;margin:4px 0 0}
.hint{font-size:14px;color:#495057}
.hint code{background:#f1f3f5;border-radius:4px;padding:1px 4px}
a{color:#1c5f99}
.back{display:inline-block;margin-top:12px}
`;

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)} · Latchkey sandbox payments</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
}

const brand = `<div class="brand"><svg width="24" height="24" viewBox="0 0 24 24" aria-hidden="true"><rect x="4" y="10" width="16" height="11" rx="2" fill="#3F5B68"/><path d="M8 10V7a4 4 0 0 1 8 0v3" stroke="#3F5B68" stroke-width="2.2" fill="none"/></svg><span>Latchkey</span><span class="badge">Sandbox: no real money</span></div>`;

function testCards(): string {
  const rows = Object.entries(SANDBOX_CARDS)
    .map(
      ([number, card]) =>
        `<li><code>${number.replace(/(\d{4})(?=\d)/g, '$1 ')}</code>: ${escapeHtml(card.label)}</li>`,
    )
    .join('');
  return `<section class="card hint" aria-labelledby="test-cards"><h2 id="test-cards">Test cards</h2><p>Any future expiry date and any 3 digits for the CVC.</p><ul>${rows}</ul></section>`;
}

interface Line {
  name: string;
  unitAmount: number;
  quantity: number;
}

function summary(session: SandboxSessionRow): string {
  const money = (minor: number) => formatMoney(minor, session.currency.toUpperCase());
  const lines = JSON.parse(session.line_items_json) as Line[];
  const shipping = session.shipping_json
    ? (JSON.parse(session.shipping_json) as { name: string; amount: number })
    : null;
  const rows = lines
    .map(
      (line) =>
        `<tr><td>${line.quantity} × ${escapeHtml(line.name)}</td><td class="amount">${money(line.unitAmount * line.quantity)}</td></tr>`,
    )
    .join('');
  const shippingRow = shipping
    ? `<tr><td>${escapeHtml(shipping.name)}</td><td class="amount">${money(shipping.amount)}</td></tr>`
    : '';
  const what = session.mode === 'subscription' ? 'Subscribe to Latchkey' : 'Pay Latchkey';
  const per = session.mode === 'subscription' ? ' per month' : '';
  return `<section class="card" aria-labelledby="what"><h1 id="what">${what}</h1><p class="total">${money(session.amount_total)}<span class="hint">${per}</span></p><table aria-label="What you pay for"><tbody>${rows}${shippingRow}</tbody></table></section>`;
}

export interface CardFormValues {
  email: string;
  name: string;
  number: string;
  expiry: string;
  cvc: string;
}

export type CardFormErrors = Partial<Record<keyof CardFormValues, string>>;

function field(
  id: keyof CardFormValues,
  label: string,
  values: Partial<CardFormValues>,
  errors: CardFormErrors,
  attributes: string,
): string {
  const error = errors[id];
  const described = error ? ` aria-invalid="true" aria-describedby="${id}-error"` : '';
  const value = id === 'number' || id === 'cvc' ? '' : escapeHtml(values[id] ?? '');
  return `<div><label for="${id}">${label}</label><input id="${id}" name="${id}" value="${value}" ${attributes}${described}>${error ? `<p class="field-error" id="${id}-error">${escapeHtml(error)}</p>` : ''}</div>`;
}

/** The checkout page: what is paid for, and the card form. */
export function checkoutPage(
  session: SandboxSessionRow,
  state: { values?: Partial<CardFormValues>; errors?: CardFormErrors; message?: string } = {},
): string {
  const values = { email: session.customer_email ?? '', ...state.values };
  const errors = state.errors ?? {};
  const money = formatMoney(session.amount_total, session.currency.toUpperCase());
  const email = session.customer_email
    ? `<p class="hint">Receipt to ${escapeHtml(session.customer_email)}</p><input type="hidden" name="email" value="${escapeHtml(session.customer_email)}">`
    : field('email', 'Email', values, errors, 'type="email" autocomplete="email" required');
  const message = state.message ? `<div class="error" role="alert">${escapeHtml(state.message)}</div>` : '';
  const body = `${brand}${summary(session)}<section class="card" aria-labelledby="pay"><h2 id="pay">Pay with card</h2>${message}<form method="post" action="" novalidate>${email}${field('name', 'Name on card', values, errors, 'autocomplete="cc-name" required')}${field('number', 'Card number', values, errors, 'inputmode="numeric" autocomplete="cc-number" placeholder="1234 1234 1234 1234" required')}<div class="row">${field('expiry', 'Expiry (MM/YY)', values, errors, 'inputmode="numeric" autocomplete="cc-exp" placeholder="MM/YY" required')}${field('cvc', 'CVC', values, errors, 'inputmode="numeric" autocomplete="cc-csc" placeholder="123" required')}</div><button type="submit">${session.mode === 'subscription' ? `Subscribe, ${money} a month` : `Pay ${money}`}</button></form><a class="back" href="${escapeHtml(session.cancel_url)}">← Cancel and go back</a></section>${testCards()}`;
  return page(session.mode === 'subscription' ? 'Subscribe' : 'Pay', body);
}

/** The second confirmation step a card asked for (3-D Secure in test mode). */
export function confirmPage(session: SandboxSessionRow): string {
  const money = formatMoney(session.amount_total, session.currency.toUpperCase());
  const body = `${brand}<section class="card" aria-labelledby="confirm"><h1 id="confirm">Confirm this payment</h1><p>Your bank asks you to confirm the payment of <strong>${money}</strong> to Latchkey. In the sandbox, choose what the bank answers.</p><form method="post" action="${API_BASE_PATH}/sandbox-pay/${escapeHtml(session.id)}/confirm"><button type="submit" name="action" value="approve">Complete authentication</button><button type="submit" name="action" value="fail" class="secondary">Fail authentication</button></form></section>`;
  return page('Confirm the payment', body);
}

/** A checkout that cannot be paid any more (paid, expired or unknown). */
export function closedPage(
  title: string,
  message: string,
  link: { href: string; label: string } | null,
): string {
  const back = link ? `<a class="back" href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a>` : '';
  return page(
    title,
    `${brand}<section class="card" aria-labelledby="closed"><h1 id="closed">${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>${back}</section>`,
  );
}

/** The card page (the customer portal): the card on file and a form for a new one. */
export function billingPage(state: {
  last4: string | null;
  returnUrl: string;
  values?: Partial<CardFormValues>;
  errors?: CardFormErrors;
  message?: string;
  saved?: boolean;
}): string {
  const errors = state.errors ?? {};
  const values = state.values ?? {};
  const status = state.saved
    ? '<div class="card" role="status">Your new card is saved. A payment that failed is tried again with it.</div>'
    : '';
  const message = state.message ? `<div class="error" role="alert">${escapeHtml(state.message)}</div>` : '';
  const body = `${brand}${status}<section class="card" aria-labelledby="card"><h1 id="card">Your card</h1><p>${state.last4 ? `Card ending in <strong>${escapeHtml(state.last4)}</strong>` : 'No card on file'}</p>${message}<form method="post" action="" novalidate>${field('number', 'New card number', values, errors, 'inputmode="numeric" autocomplete="cc-number" required')}<div class="row">${field('expiry', 'Expiry (MM/YY)', values, errors, 'inputmode="numeric" autocomplete="cc-exp" placeholder="MM/YY" required')}${field('cvc', 'CVC', values, errors, 'inputmode="numeric" autocomplete="cc-csc" required')}</div><button type="submit">Save card</button></form><a class="back" href="${escapeHtml(state.returnUrl)}">← Back to Latchkey</a></section>${testCards()}`;
  return page('Your card', body);
}

/** Checks a card form; answers the errors by field (none: it can be tried). */
export function checkCardForm(
  values: Partial<CardFormValues>,
  needEmail: boolean,
  now = new Date(),
): CardFormErrors {
  const errors: CardFormErrors = {};
  // A form post is parsed here, not by a route schema: its text gets the same safe-text rule
  // (docs/decisions.md "One safe text type, checked from the route registry").
  const safe = (value: string) => hasNoControlCharacters(value) && isWellFormedText(value);
  const email = values.email ?? '';
  if (needEmail && !(/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) && safe(email)))
    errors.email = 'Enter an email address.';
  if (values.name !== undefined && !(values.name.trim() && safe(values.name)))
    errors.name = 'Enter the name on the card.';
  const expiry = /^(\d{2})\s*\/\s*(\d{2})$/.exec(values.expiry ?? '');
  const month = expiry ? Number(expiry[1]) : 0;
  const year = expiry ? 2000 + Number(expiry[2]) : 0;
  if (!expiry || month < 1 || month > 12) errors.expiry = 'Enter the expiry as MM/YY.';
  else if (year < now.getUTCFullYear() || (year === now.getUTCFullYear() && month < now.getUTCMonth() + 1)) {
    errors.expiry = 'This card has expired.';
  }
  if (!/^\d{3,4}$/.test(values.cvc ?? '')) errors.cvc = 'Enter the 3 or 4 digits on the back.';
  return errors;
}

/** Whether a session's checkout time is over. */
export function isSessionExpired(session: SandboxSessionRow, now = new Date()): boolean {
  return session.status === 'expired' || new Date(toIso(session.expires_at)).getTime() < now.getTime();
}
