import type { Database } from '../../db/database';
import type { UserRow } from '../../db/schema';
import { AppError } from '../http/errors';
import { assertMaySendInvitations, type MailThrottle, type PersonMail } from './mail-throttle';
import { enqueueMail, type OutgoingMail } from './mail.repository';
import { BRANDS, DEFAULT_BRAND } from '@latchkey/shared';
import { brandOfPortal } from '../tenancy/portal-brand';
import { brandMail, fact } from './mail.templates';

// The one door for mail (docs/decisions.md "One door for mail"): every message the server sends is
// queued by `sendMail`, and the kind says which limits apply. `enqueueMail` itself cannot be
// imported outside this feature (eslint.config.js), and test/mail-mechanism.test.ts fails on any
// other module that writes the outbox, so a new feature cannot forget the throttle.

/**
 * Who a mail goes to, and so what holds it back:
 * - `to-others`: a person makes the portal mail someone else (guest invites, portal and reseller
 *   invitations, a stay's mails to its guest, review requests). Their own address must be confirmed
 *   (403) and the mail is counted per recipient, per sender and per portal (MAIL_LIMIT_*, 429).
 * - `to-requester`: to the address of the person asking for it (verification, email change, reset,
 *   account links, a guest's request receipt). Counted where it is asked for (AuthLimits
 *   `countAccountMail`, the rental `countRequestMail`), not by the throttle, so invitations to an
 *   address never hold back its owner's reset.
 * - `system`: to the portal's own admins (alerts, new requests), to platform staff (staff alerts),
 *   to the buyer who paid (order confirmation), to a portal's owner (payment failed). No sender.
 */
export type MailKind = 'to-others' | 'to-requester' | 'system';

/** The person a `to-others` mail is sent for, and the throttle that counts it (app.mailThrottle). */
export interface MailSender {
  user: Pick<UserRow, 'id' | 'email_verified_at'>;
  throttle: MailThrottle;
}

/** A subject is one line whatever a template put in it (typed facts are already cut by `fact`). */
const SUBJECT_LENGTH = 200;

/**
 * Queues a mail; call it inside the transaction of the change that causes it, so a refusal rolls
 * the change back with it. `to-others` answers 403 when the sender's address is not confirmed and
 * 429 with Retry-After over a limit, before anything is written.
 */
export async function sendMail(
  db: Database,
  kind: 'system' | 'to-requester',
  mail: OutgoingMail,
): Promise<string>;
export async function sendMail(
  db: Database,
  kind: 'to-others',
  mail: PersonMail,
  from: MailSender,
): Promise<string>;
export async function sendMail(
  db: Database,
  kind: MailKind,
  mail: OutgoingMail,
  from?: MailSender,
): Promise<string> {
  if (kind === 'to-others') {
    if (!from || !mail.portalId) throw new Error('A mail to others needs its sender and portal');
    assertMaySendInvitations(from.user);
    await from.throttle.count({ portalId: mail.portalId, senderId: from.user.id, to: mail.to });
  }
  // A mail about a portal comes in that portal's brand (its reseller's choice), else Latchkey's.
  const brand = BRANDS[(mail.portalId && (await brandOfPortal(db, mail.portalId))) || DEFAULT_BRAND];
  return enqueueMail(db, {
    ...mail,
    subject: fact(mail.subject, SUBJECT_LENGTH),
    html: brandMail(mail.html, brand),
  });
}

/** Why a `to-others` mail was not sent: the sender's address is not confirmed, or a limit is used up. */
export interface MailRefusal {
  status: 403 | 429;
  message: string;
}

/**
 * `sendMail('to-others', …)` for work that goes on when its mail is refused: a background job (the
 * stay access monitor, review requests) or a decision that must not wait on mail (cancelling a
 * stay). Answers null once queued, or the refusal, with nothing queued; other errors are thrown.
 * The caller records the refusal where the host sees it.
 */
export async function trySendMail(
  db: Database,
  mail: PersonMail,
  from: MailSender,
): Promise<MailRefusal | null> {
  try {
    await sendMail(db, 'to-others', mail, from);
    return null;
  } catch (error) {
    if (error instanceof AppError && (error.status === 403 || error.status === 429)) {
      return { status: error.status, message: error.message };
    }
    throw error;
  }
}
