import type { AlertKind, AlertRule, NotificationKind } from '@latchkey/shared';

export const ALERT_KIND_LABELS: Record<AlertKind, string> = {
  low_battery: 'Low battery',
  offline: 'Offline too long',
  denied_attempts: 'Refused attempts',
  tamper: 'Tamper alarm',
  user_access: 'A person opens a lock',
};

/** What a stored notification is about: a rule's kind, or one of the host's inbox (no rule). */
export const NOTIFICATION_KIND_LABELS: Record<NotificationKind, string> = {
  ...ALERT_KIND_LABELS,
  stay_access: 'Guest access',
  stay_request: 'Stay request',
  lock_refused: 'Lock refused',
  sync_failed: 'Lock command failed',
  payment_failed: 'Payment problem',
  webhook_failing: 'Webhook disabled',
};

/** What a rule watches for, in a sentence: "When a lock stays offline longer than 30 minutes, at any lock." */
export function describeRule(
  rule: Pick<AlertRule, 'kind' | 'minutes' | 'count' | 'user' | 'devices'>,
): string {
  const what: Record<AlertKind, string> = {
    low_battery: "When a lock's battery falls to its alert level",
    offline: `When a lock stays offline longer than ${rule.minutes} minutes`,
    denied_attempts: `When ${rule.count} attempts are refused within ${rule.minutes} minutes at one lock`,
    tamper: 'When a lock reports tampering',
    user_access: `When ${rule.user?.name ?? 'the person'} opens a lock`,
  };
  const where = rule.devices.length === 0 ? 'any lock' : rule.devices.map((device) => device.name).join(', ');
  return `${what[rule.kind]}: ${where}.`;
}
