import crypto from 'node:crypto';
import type {
  AlertKind,
  CommandError,
  CredentialRejection,
  LiveNotification,
  NotificationKind,
  NotificationSubject,
} from '@latchkey/shared';
import type { Database } from '../../db/database';
import { nowIso } from '../../db/mappers';
import { insertNotificationOnce } from './alerts.repository';

/**
 * The host's inbox (issue 19, item 3): what the portal's admins are told without a rule of theirs:
 * a guest's request, a lock refusing what it was sent, a command that failed, a declined payment.
 * Stored in the same table as the rules' alerts, so GET portal/notifications, the bell and the
 * alerts screen show them all, each naming its subject so the screen can link to where to act.
 */
export interface Notice {
  kind: Exclude<NotificationKind, AlertKind>;
  title: string;
  message: string;
  /** The lock it concerns, if any (the alerts screen shows its current name). */
  deviceId?: string | null;
  subject: NotificationSubject | null;
  /** Unique per portal: the same happening (a retried webhook, a second server) is told once. */
  onceKey: string;
}

/**
 * Stores a notice once, inside the caller's transaction (so it exists only if the happening it
 * tells of does). Answers the live message to send once that transaction has committed, or null
 * when it was told before.
 */
export async function storeNotice(
  db: Database,
  portalId: string,
  notice: Notice,
): Promise<LiveNotification | null> {
  const id = crypto.randomUUID();
  const at = nowIso();
  const fresh = await insertNotificationOnce(db, {
    id,
    portal_id: portalId,
    rule_id: null,
    kind: notice.kind,
    device_id: notice.deviceId ?? null,
    user_id: null,
    title: notice.title,
    message: notice.message,
    once_key: notice.onceKey,
    subject_json: notice.subject ? JSON.stringify(notice.subject) : null,
    created_at: at,
  });
  if (!fresh) return null;
  return {
    _id: id,
    at,
    // A request is news; a refusal or a failed payment is trouble (red on screen).
    kind: notice.kind === 'stay_request' ? 'notice' : 'alert',
    title: notice.title,
    message: notice.message,
    deviceId: notice.deviceId ?? null,
  };
}

/** A stored subject back to the API's shape (null when absent or unreadable). */
export function subjectOf(json: string | null): NotificationSubject | null {
  if (!json) return null;
  try {
    return JSON.parse(json) as NotificationSubject;
  } catch {
    return null;
  }
}

/**
 * What the device link reports to the inbox: a lock refused entries of a credential set it was
 * sent, or answered a remote command with a failure (or too late).
 */
export type LockRefusal =
  | {
      kind: 'credentials';
      device: { id: string; name: string };
      version: number;
      rejected: { credentialId: string; reason: CredentialRejection }[];
    }
  | {
      kind: 'command';
      device: { id: string; name: string };
      commandId: string;
      status: 'failed' | 'expired';
      error: CommandError | null;
    };
