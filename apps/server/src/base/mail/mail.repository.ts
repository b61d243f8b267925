import crypto from 'node:crypto';
import type { Database } from '../../db/database';
import { containsText } from '../../db/like';
import { nowIso, toIso } from '../../db/mappers';
import type { MailRow } from '../../db/schema';
import { claimDue } from '../jobs/claim-due';

export interface OutgoingMail {
  portalId: string | null;
  template: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Files sent with it (a scheduled report's CSV and PDF); stored with the queued mail. */
  attachments?: MailAttachment[];
}

/** A file attached to a mail. Keep it small: it waits in the outbox table until sent. */
export interface MailAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

/** Queues a message; call it inside the transaction of the change that causes it. */
export async function enqueueMail(db: Database, mail: OutgoingMail): Promise<string> {
  const id = crypto.randomUUID();
  const now = nowIso();
  await db
    .insertInto('mail_outbox')
    .values({
      id,
      portal_id: mail.portalId,
      template: mail.template,
      to_address: mail.to,
      subject: mail.subject,
      text_body: mail.text,
      html_body: mail.html,
      attachments_json: mail.attachments?.length
        ? JSON.stringify(
            mail.attachments.map((file) => ({
              filename: file.filename,
              contentType: file.contentType,
              base64: file.content.toString('base64'),
            })),
          )
        : null,
      next_attempt_at: now,
      created_at: now,
    })
    .execute();
  return id;
}

/**
 * Claims up to `limit` messages due for a (first or next) attempt, for `leaseMs`: no other server
 * sends them meanwhile (their next attempt moves to the end of the lease). Oldest first.
 */
export async function claimDueMail(db: Database, limit: number, leaseMs: number): Promise<MailRow[]> {
  const claimed = await claimDue(db, {
    table: 'mail_outbox',
    key: 'id',
    dueAt: 'next_attempt_at',
    where: (eb) => eb.and([eb('sent_at', 'is', null), eb('failed_at', 'is', null)]),
    limit,
    leaseMs,
  });
  return claimed.sort((a, b) => toIso(a.created_at).localeCompare(toIso(b.created_at)));
}

export async function markMailSent(db: Database, id: string): Promise<void> {
  await db
    .updateTable('mail_outbox')
    .set((eb) => ({ sent_at: nowIso(), attempts: eb('attempts', '+', 1), last_error: null }))
    .where('id', '=', id)
    .execute();
}

/** Records a failed attempt: try again at `retryAt`, or give up when it is null. */
export async function markMailAttemptFailed(
  db: Database,
  id: string,
  error: string,
  retryAt: Date | null,
): Promise<void> {
  await db
    .updateTable('mail_outbox')
    .set((eb) => ({
      attempts: eb('attempts', '+', 1),
      last_error: error.slice(0, 1000),
      ...(retryAt ? { next_attempt_at: retryAt.toISOString() } : { failed_at: nowIso() }),
    }))
    .where('id', '=', id)
    .execute();
}

/** The newest messages to an address (the dev mailbox, and tests). */
export function listMailTo(db: Database, to: string): Promise<MailRow[]> {
  return db
    .selectFrom('mail_outbox')
    .selectAll()
    .where('to_address', '=', to)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
}

/** One page of the outbox, newest first (the dev mailbox of platform staff). */
export async function listOutbox(
  db: Database,
  query: { skip: number; limit: number; search?: string; template?: string; descending: boolean },
) {
  let base = db.selectFrom('mail_outbox');
  if (query.search) {
    const term = query.search;
    base = base.where((eb) => eb.or([containsText('to_address', term), containsText('subject', term)]));
  }
  if (query.template) base = base.where('template', '=', query.template);
  const direction = query.descending ? 'desc' : 'asc';
  const [rows, count] = await Promise.all([
    base
      .selectAll()
      .orderBy('created_at', direction)
      .orderBy('id', direction)
      .limit(query.limit)
      .offset(query.skip)
      .execute(),
    base.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: count.total };
}
