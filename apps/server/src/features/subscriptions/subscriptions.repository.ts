import type { PaymentProviderName } from '@latchkey/shared';
import type { Insertable, Updateable } from 'kysely';
import type { Database } from '../../db/database';
import { toCount } from '../../db/mappers';
import type { SubscriptionRow, SubscriptionsTable } from '../../db/schema';

/** Provider statuses of a subscription that still runs (it can be changed or canceled). */
export const LIVE_SUBSCRIPTION_STATUSES = ['active', 'trialing', 'past_due', 'unpaid'] as const;

/** The portal's newest subscription (the one its standing follows). */
export function findLatestSubscription(db: Database, portalId: string): Promise<SubscriptionRow | undefined> {
  return db
    .selectFrom('subscriptions')
    .selectAll()
    .where('portal_id', '=', portalId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

/** The portal's subscription that still runs, if any. */
export function findLiveSubscription(db: Database, portalId: string): Promise<SubscriptionRow | undefined> {
  return db
    .selectFrom('subscriptions')
    .selectAll()
    .where('portal_id', '=', portalId)
    .where('status', 'in', [...LIVE_SUBSCRIPTION_STATUSES])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

/**
 * The portal's running subscriptions, newest first (the one we heard of last; ties by id): more
 * than one only between two paid checkouts and the older one's end (subscription-upkeep.ts).
 */
export function listLiveSubscriptions(
  db: Database,
  portalId: string,
  provider: PaymentProviderName,
): Promise<SubscriptionRow[]> {
  return db
    .selectFrom('subscriptions')
    .selectAll()
    .where('portal_id', '=', portalId)
    .where('provider', '=', provider)
    .where('status', 'in', [...LIVE_SUBSCRIPTION_STATUSES])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** A running subscription of the portal that replaces `row` (newer than it), if any. */
export async function findReplacingSubscription(
  db: Database,
  row: SubscriptionRow,
): Promise<SubscriptionRow | undefined> {
  const [newest] = await listLiveSubscriptions(db, row.portal_id, row.provider);
  return newest && newest.id !== row.id ? newest : undefined;
}

/** A subscription by the provider's id (from a verified webhook; it names its portal). */
export function findSubscriptionByProviderId(
  db: Database,
  provider: PaymentProviderName,
  providerSubscriptionId: string,
): Promise<SubscriptionRow | undefined> {
  return db
    .selectFrom('subscriptions')
    .selectAll()
    .where('provider', '=', provider)
    .where('provider_subscription_id', '=', providerSubscriptionId)
    .executeTakeFirst();
}

export async function insertSubscription(db: Database, row: Insertable<SubscriptionsTable>): Promise<void> {
  await db.insertInto('subscriptions').values(row).execute();
}

export async function updateSubscription(
  db: Database,
  portalId: string,
  id: string,
  patch: Updateable<SubscriptionsTable>,
): Promise<void> {
  await db
    .updateTable('subscriptions')
    .set(patch)
    .where('portal_id', '=', portalId)
    .where('id', '=', id)
    .execute();
}

/** The customer a portal has at the provider (for the card page and new checkouts). */
export async function findPortalCustomer(
  db: Database,
  portalId: string,
  provider: PaymentProviderName,
): Promise<string | null> {
  const row = await db
    .selectFrom('subscriptions')
    .select('provider_customer_id')
    .where('portal_id', '=', portalId)
    .where('provider', '=', provider)
    .where('provider_customer_id', 'is not', null)
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  return row?.provider_customer_id ?? null;
}

/** Locks the portal has now (not deleted): what a plan charges per lock for. */
export async function countPortalLocks(db: Database, portalId: string): Promise<number> {
  const row = await db
    .selectFrom('devices')
    .select((eb) => eb.fn.countAll().as('count'))
    .where('portal_id', '=', portalId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return toCount(row?.count as string | number | undefined);
}

/** What the provider last said about a portal's payments: brief §1's stripe.status and expireDate. */
export async function setPortalPaymentState(
  db: Database,
  portalId: string,
  state: { stripeStatus?: string | null; expireDate?: string | null },
): Promise<void> {
  await db
    .updateTable('portals')
    .set({
      ...(state.stripeStatus !== undefined && { stripe_status: state.stripeStatus }),
      ...(state.expireDate !== undefined && { expire_date: state.expireDate }),
      updated_at: new Date().toISOString(),
    })
    .where('id', '=', portalId)
    .execute();
}
