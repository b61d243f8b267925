import crypto from 'node:crypto';
import type { Database } from '../../db/database';
import { nowIso } from '../../db/mappers';
import type { StayRow } from '../../db/schema';
import { insertNotificationOnce } from '../alerts/alerts.repository';
import type { MailThrottle } from '../../base/mail/mail-throttle';
import type { MailRefusal, MailSender } from '../../base/mail/send-mail';

// A stay's mails to its guest are mail to others (docs/decisions.md "One door for mail"): someone
// on the portal causes them, so they go through sendMail's `to-others` limits like any invitation.

/**
 * Who a stay's mail is sent for when no request causes it (the access monitor, review requests):
 * the admin who approved the stay while they are still an active admin of the portal, otherwise
 * the portal's owner (an automatically accepted or imported stay, an approver who left).
 */
export async function stayMailSender(
  db: Database,
  stay: Pick<StayRow, 'portal_id' | 'decided_by'>,
  throttle: MailThrottle,
): Promise<MailSender> {
  if (stay.decided_by) {
    const approver = await db
      .selectFrom('memberships as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select(['u.id', 'u.email_verified_at'])
      .where('m.portal_id', '=', stay.portal_id)
      .where('m.user_id', '=', stay.decided_by)
      .where('m.role', '=', 'admin')
      .where('m.status', '=', 'active')
      .executeTakeFirst();
    if (approver) return { user: approver, throttle };
  }
  const owner = await db
    .selectFrom('portals as p')
    .innerJoin('users as u', 'u.id', 'p.owner_user_id')
    .select(['u.id', 'u.email_verified_at'])
    .where('p.id', '=', stay.portal_id)
    .executeTakeFirstOrThrow();
  return { user: owner, throttle };
}

/** What the host is told when a guest's mail was refused, so they can pass it on themselves. */
export function unsentMailNotice(
  stay: Pick<StayRow, 'guest_name' | 'start_date' | 'end_date'>,
  what: string,
  refusal: MailRefusal,
) {
  const why =
    refusal.status === 403
      ? 'the address of the person it is sent for is not confirmed'
      : 'too many mails went to this address or from this portal recently';
  return {
    title: `${stay.guest_name} was not mailed ${what}`.slice(0, 200),
    message:
      `Stay ${stay.start_date} to ${stay.end_date}: the mail was not sent because ${why}. ` +
      'Pass the news on yourself, or mail the guest again from the stay later.',
  };
}

/**
 * Records a refused guest mail as the portal's notification (the alerts screen), once per
 * `onceKey`; answers the stored notification, or null when it was recorded before.
 */
export async function recordUnsentMail(
  db: Database,
  stay: Pick<StayRow, 'portal_id' | 'id'>,
  notice: { title: string; message: string },
  onceKey: string,
) {
  const row = {
    id: crypto.randomUUID(),
    at: nowIso(),
    title: notice.title,
    message: notice.message,
  };
  const fresh = await insertNotificationOnce(db, {
    id: row.id,
    portal_id: stay.portal_id,
    rule_id: null,
    kind: 'stay_access',
    device_id: null,
    user_id: null,
    title: row.title,
    message: row.message.slice(0, 500),
    once_key: `mail:${stay.id}:${onceKey}`,
    created_at: row.at,
  });
  return fresh ? row : null;
}
