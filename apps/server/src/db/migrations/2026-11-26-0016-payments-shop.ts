import type { Kysely } from 'kysely';
import { timestampType } from '../column-types';

// Frozen: never edit a migration that has shipped; add a new one.
// Payments, plans' subscriptions and the hardware shop (issue 13 items 1, 2, 4, 6). Money is integer
// minor units with its currency. The sandbox_* tables are the built-in sandbox provider's own books
// (what Stripe keeps on its side), not the portal's.
export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);

  // A portal's subscription at the provider, as its webhooks last described it.
  await db.schema
    .createTable('subscriptions')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('portal_id', 'text', (c) => c.notNull().references('portals.id').onDelete('cascade'))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('provider_subscription_id', 'text', (c) => c.notNull())
    .addColumn('provider_customer_id', 'text')
    .addColumn('plan', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('quantity', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('current_period_end', ts)
    .addColumn('cancel_at_period_end', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('payment_failed_at', ts)
    /** When the provider made the newest event applied: an older one arriving late changes nothing. */
    .addColumn('last_event_at', ts, (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('subscriptions_portal_idx')
    .on('subscriptions')
    .columns(['portal_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('subscriptions_provider_idx')
    .on('subscriptions')
    .columns(['provider', 'provider_subscription_id'])
    .unique()
    .execute();

  // Every checkout started (a plan, a prepaid period or a shop order), with its outcome.
  await db.schema
    .createTable('checkouts')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('portal_id', 'text', (c) => c.references('portals.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('provider_session_id', 'text')
    .addColumn('plan', 'text')
    .addColumn('months', 'integer')
    .addColumn('quantity', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('order_id', 'text')
    .addColumn('amount_total', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    /** SHA-256 of the token the browser holds to read the outcome. */
    .addColumn('token_hash', 'text', (c) => c.notNull())
    .addColumn('created_by_user_id', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('expires_at', ts, (c) => c.notNull())
    .addColumn('completed_at', ts)
    .execute();
  await db.schema
    .createIndex('checkouts_portal_idx')
    .on('checkouts')
    .columns(['portal_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('checkouts_session_idx')
    .on('checkouts')
    .columns(['provider', 'provider_session_id'])
    .unique()
    .execute();
  await db.schema
    .createIndex('checkouts_open_idx')
    .on('checkouts')
    .columns(['status', 'expires_at'])
    .execute();

  // Provider events handled, once each.
  await db.schema
    .createTable('payment_events')
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('object_id', 'text')
    .addColumn('occurred_at', ts, (c) => c.notNull())
    .addColumn('received_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('payment_events_pk', ['provider', 'event_id'])
    .execute();

  // Alerts to platform staff (failed webhooks and payments), once per happening.
  await db.schema
    .createTable('staff_alerts')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('portal_id', 'text', (c) => c.references('portals.id').onDelete('set null'))
    .addColumn('once_key', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('staff_alerts_created_idx').on('staff_alerts').column('created_at').execute();

  // Every money-related change, including those of no portal (a visitor's order).
  await db.schema
    .createTable('commerce_audit')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('portal_id', 'text')
    .addColumn('actor_user_id', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('entity_type', 'text', (c) => c.notNull())
    .addColumn('entity_id', 'text', (c) => c.notNull())
    .addColumn('before_json', 'text')
    .addColumn('after_json', 'text')
    .addColumn('ip', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('commerce_audit_portal_idx')
    .on('commerce_audit')
    .columns(['portal_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('commerce_audit_entity_idx')
    .on('commerce_audit')
    .columns(['entity_type', 'entity_id'])
    .execute();

  await db.schema
    .createTable('products')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('sku', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('summary', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('image', 'text', (c) => c.notNull())
    .addColumn('price', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('stock_on_hand', 'integer', (c) => c.notNull().defaultTo(0))
    /** Units held by unpaid checkouts. */
    .addColumn('stock_reserved', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('pack_size', 'integer', (c) => c.notNull().defaultTo(1))
    /** The lock model a unit pre-registers as, for locks. */
    .addColumn('lock_model', 'text')
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('orders')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('ref', 'text', (c) => c.notNull().unique())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('buyer_user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    /** The portal its locks are pre-registered in. */
    .addColumn('portal_id', 'text', (c) => c.references('portals.id').onDelete('set null'))
    .addColumn('address_json', 'text', (c) => c.notNull())
    .addColumn('shipping_option', 'text', (c) => c.notNull())
    .addColumn('shipping_name', 'text', (c) => c.notNull())
    .addColumn('shipping_price', 'integer', (c) => c.notNull())
    .addColumn('shipping_min_days', 'integer', (c) => c.notNull())
    .addColumn('shipping_max_days', 'integer', (c) => c.notNull())
    .addColumn('subtotal', 'integer', (c) => c.notNull())
    .addColumn('total', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('checkout_id', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('expires_at', ts, (c) => c.notNull())
    .addColumn('paid_at', ts)
    .addColumn('canceled_at', ts)
    .execute();
  await db.schema
    .createIndex('orders_portal_idx')
    .on('orders')
    .columns(['portal_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('orders_buyer_idx')
    .on('orders')
    .columns(['buyer_user_id', 'created_at'])
    .execute();
  await db.schema.createIndex('orders_created_idx').on('orders').column('created_at').execute();

  await db.schema
    .createTable('order_items')
    .addColumn('order_id', 'text', (c) => c.notNull().references('orders.id').onDelete('cascade'))
    .addColumn('line', 'integer', (c) => c.notNull())
    .addColumn('product_id', 'text', (c) => c.notNull())
    .addColumn('sku', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('image', 'text', (c) => c.notNull())
    .addColumn('unit_price', 'integer', (c) => c.notNull())
    .addColumn('quantity', 'integer', (c) => c.notNull())
    .addColumn('line_total', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('order_items_pk', ['order_id', 'line'])
    .execute();

  // Locks an order pre-registered in a portal.
  await db.schema
    .createTable('order_devices')
    .addColumn('portal_id', 'text', (c) => c.notNull().references('portals.id').onDelete('cascade'))
    .addColumn('order_id', 'text', (c) => c.notNull())
    .addColumn('device_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('order_devices_pk', ['portal_id', 'order_id', 'device_id'])
    .execute();

  // The sandbox provider's books.
  await db.schema
    .createTable('sandbox_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('payment_status', 'text', (c) => c.notNull())
    .addColumn('customer_id', 'text')
    .addColumn('customer_email', 'text')
    .addColumn('subscription_id', 'text')
    .addColumn('client_reference_id', 'text')
    .addColumn('line_items_json', 'text', (c) => c.notNull())
    .addColumn('shipping_json', 'text')
    .addColumn('amount_total', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('metadata_json', 'text', (c) => c.notNull())
    .addColumn('subscription_metadata_json', 'text')
    .addColumn('success_url', 'text', (c) => c.notNull())
    .addColumn('cancel_url', 'text', (c) => c.notNull())
    /** A card that needs a second confirmation step is waiting for it. */
    .addColumn('awaiting_confirmation', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('idempotency_key', 'text', (c) => c.unique())
    .addColumn('expires_at', ts, (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('sandbox_customers')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('email', 'text')
    .addColumn('card_last4', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('sandbox_subscriptions')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('customer_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('unit_amount', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('quantity', 'integer', (c) => c.notNull())
    .addColumn('current_period_start', ts, (c) => c.notNull())
    .addColumn('current_period_end', ts, (c) => c.notNull())
    .addColumn('cancel_at_period_end', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('canceled_at', ts)
    .addColumn('metadata_json', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  // Events the sandbox sends to the webhook, retried until the server takes them.
  await db.schema
    .createTable('sandbox_events')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('payload_json', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', ts, (c) => c.notNull())
    .addColumn('delivered_at', ts)
    .addColumn('last_error', 'text')
    .execute();
  await db.schema
    .createIndex('sandbox_events_due_idx')
    .on('sandbox_events')
    .columns(['delivered_at', 'next_attempt_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'sandbox_events',
    'sandbox_subscriptions',
    'sandbox_customers',
    'sandbox_sessions',
    'order_devices',
    'order_items',
    'orders',
    'products',
    'commerce_audit',
    'staff_alerts',
    'payment_events',
    'checkouts',
    'subscriptions',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
