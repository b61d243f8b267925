import crypto from 'node:crypto';
import type { StaffAlert, StaffAlertKind } from '@latchkey/shared';
import type { Database } from '../../db/database';
import { nowIso, toCount, toIso } from '../../db/mappers';
import { sendMail } from '../../base/mail/send-mail';
import { staffAlertMail } from './payments.mail';

// Platform staff hear about money going wrong (a webhook that failed or was forged, a failed
// payment, a subscription lapsing, stock sold twice): an entry in the staff alert list (GET
// system/alerts, the staff "Payments" screen) and a mail to every active superAdmin. Each happening
// is told once (its once_key), so a provider retrying a failing webhook does not flood anyone.

export interface StaffAlertInput {
  kind: StaffAlertKind;
  title: string;
  message: string;
  portalId?: string | null;
  /** What the alert is about, unique: the same key raises nothing twice. */
  onceKey: string;
}

/** Raises an alert to platform staff once per `onceKey`; answers whether it was new. */
export async function raiseStaffAlert(
  db: Database,
  alert: StaffAlertInput,
  publicUrl: string,
): Promise<boolean> {
  const inserted = await db
    .insertInto('staff_alerts')
    .values({
      id: crypto.randomUUID(),
      kind: alert.kind,
      title: alert.title.slice(0, 200),
      message: alert.message.slice(0, 2000),
      portal_id: alert.portalId ?? null,
      once_key: alert.onceKey.slice(0, 300),
      created_at: nowIso(),
    })
    .onConflict((oc) => oc.column('once_key').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!inserted) return false;
  const staff = await db
    .selectFrom('users')
    .select('email')
    .where('platform_role', '=', 'superAdmin')
    .where('status', '=', 'active')
    .execute();
  const mail = staffAlertMail({
    title: alert.title,
    message: alert.message,
    link: `${publicUrl}/app/devTools/payments`,
  });
  for (const { email } of staff) {
    await sendMail(db, 'system', { portalId: null, template: 'staff_alert', to: email, ...mail });
  }
  return true;
}

/** One page of staff alerts, newest first. */
export async function listStaffAlerts(
  db: Database,
  query: {
    skip: number;
    limit: number;
    descending: boolean;
    sortBy?: 'createdAt';
    filterBy?: 'kind';
    filterValue?: string;
  },
): Promise<{ items: StaffAlert[]; total: number }> {
  let base = db.selectFrom('staff_alerts');
  if (query.filterBy === 'kind' && query.filterValue)
    base = base.where('kind', '=', query.filterValue as StaffAlertKind);
  const total = await base.select((eb) => eb.fn.countAll().as('count')).executeTakeFirst();
  const rows = await base
    .leftJoin('portals', 'portals.id', 'staff_alerts.portal_id')
    .select([
      'staff_alerts.id',
      'staff_alerts.kind',
      'staff_alerts.title',
      'staff_alerts.message',
      'staff_alerts.portal_id',
      'staff_alerts.created_at',
      'portals.name as portal_name',
    ])
    // Newest first unless asked otherwise: what staff want to see on opening the list.
    .orderBy('staff_alerts.created_at', query.sortBy && !query.descending ? 'asc' : 'desc')
    .orderBy('staff_alerts.id')
    .limit(query.limit)
    .offset(query.skip)
    .execute();
  return {
    total: toCount(total?.count as string | number | undefined),
    items: rows.map((row) => ({
      _id: row.id,
      kind: row.kind,
      title: row.title,
      message: row.message,
      portal: row.portal_id ? { _id: row.portal_id, name: row.portal_name ?? '' } : null,
      createdAt: toIso(row.created_at),
    })),
  };
}
