import type { Notification } from '@latchkey/shared';
import { paths } from '@/config/paths';

/**
 * Where to act on a notification: a stay request's page (approve or decline), a lock's sync tab (what
 * it refused), the billing screen (a declined payment), else the lock it names, else the alerts
 * screen (every notification links somewhere).
 */
export function notificationHref(notification: Pick<Notification, 'subject' | 'device'>): string {
  const subject = notification.subject;
  if (subject?.type === 'stay' && subject.listingId)
    return paths.app.stay.href(subject.listingId, subject._id);
  if (subject?.type === 'device') return paths.app.device.href(subject._id, { tab: 'sync' });
  if (subject?.type === 'subscription') return paths.app.billing.href();
  if (notification.device) return paths.app.device.href(notification.device._id);
  return paths.app.alerts.href();
}
