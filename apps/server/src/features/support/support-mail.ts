import { SUPPORT_TYPE_LABELS, type SupportType } from '@latchkey/shared';
import { escapeHtml, fact, type RenderedMail } from '../../base/mail/mail.templates';

/**
 * Staff answered a person's support request: the answer itself (typed by staff, so kept as lines
 * but escaped) and the link to the request's page in the app, where the thread goes on.
 */
export function supportReplyMail(facts: {
  name: string;
  type: SupportType;
  description: string;
  message: string;
  link: string;
}): RenderedMail {
  const title = `Latchkey support answered your request: ${SUPPORT_TYPE_LABELS[facts.type]}`;
  const about = fact(facts.description, 120);
  const answer = facts.message.replace(/\r\n?/g, '\n').slice(0, 4000);
  const text = [
    `Hello ${fact(facts.name)},`,
    `Latchkey support answered your request "${about}":`,
    answer,
    `See the request and reply: ${facts.link}`,
  ].join('\n\n');
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#1a1b1e;max-width:560px;margin:24px auto;padding:0 16px"><h1 style="font-size:20px">${escapeHtml(title)}</h1><p>${escapeHtml(`Hello ${fact(facts.name)},`)}</p><p>${escapeHtml(`Latchkey support answered your request "${about}":`)}</p><blockquote style="margin:0 0 12px;padding:8px 12px;border-left:3px solid #1c7ed6;white-space:pre-wrap">${escapeHtml(answer)}</blockquote><p><a href="${escapeHtml(facts.link)}" style="display:inline-block;background:#1c7ed6;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none">See the request and reply</a></p><p>Or open this link: ${escapeHtml(facts.link)}</p><p style="color:#868e96;font-size:12px">Sent by Latchkey.</p></body></html>`;
  return { subject: title, text: `${text}\n`, html };
}
