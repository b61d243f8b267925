import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../src/db/database';
import { migrateToLatest, migrationNames } from '../src/db/migrate';
import { TestApp } from './test-app';

/** Each table's columns with their nullability: what both dialects must agree on. */
async function shapeOf(db: Database) {
  const tables = await db.introspection.getTables();
  return Object.fromEntries(
    tables
      // search_*: SQLite's full-text indexes (FTS5 and their keys); PostgreSQL indexes the tables.
      .filter((table) => !table.name.startsWith('kysely_') && !table.name.startsWith('search_'))
      .map((table) => [table.name, table.columns.map((c) => `${c.name}${c.isNullable ? '?' : ''}`).sort()]),
  );
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'latchkey-db-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe('migrations', () => {
  it('build every table on SQLite, and running them again changes nothing', async () => {
    const { db } = openDatabase({ dataDir });
    const applied = await migrateToLatest(db);
    expect(applied).toEqual(migrationNames);
    expect([...applied].sort()).toEqual(applied); // dated names sort in the order they apply
    expect(await migrateToLatest(db)).toEqual([]);
    expect(Object.keys(await shapeOf(db)).sort()).toEqual([
      'access_requests',
      'account_offers',
      'account_tokens',
      'alert_rules',
      'api_keys',
      'audit_log',
      'audit_log_devices',
      'auth_epoch',
      'billing_profiles',
      'bills',
      'checkouts',
      'client_errors',
      'collection_changes',
      'commerce_audit',
      'content_page_versions',
      'content_pages',
      'credential_devices',
      'credential_set_bodies',
      'credentials',
      'deployment_feature_flags',
      'device_commands',
      'device_credential_entries',
      'device_credential_recompute',
      'device_credential_rejections',
      'device_credential_sync',
      'device_events',
      'device_invites',
      'device_landings',
      'device_users',
      'devices',
      'group_devices',
      'group_users',
      'groups',
      'invoice_counters',
      'listing_access_lists',
      'listing_blocks',
      'listing_categories',
      'listing_ical_feeds',
      'listing_locks',
      'listing_users',
      'listings',
      'lockout_devices',
      'lockouts',
      'mail_outbox',
      'member_counts',
      'member_directory',
      'memberships',
      'nav_visibility',
      'notification_reads',
      'notifications',
      'order_devices',
      'order_items',
      'orders',
      'payment_events',
      'platform_audit',
      'portal_feature_flags',
      'portal_plan_periods',
      'portals',
      'products',
      'reader_enrollments',
      'readers',
      'recovery_codes',
      'report_schedules',
      'reseller_links',
      'resellers',
      'reviews',
      'sandbox_customers',
      'sandbox_events',
      'sandbox_sessions',
      'sandbox_subscriptions',
      'scheduled_jobs',
      'seal_nonces',
      'staff_alerts',
      'stay_access',
      'stays',
      'subscriptions',
      'support_images',
      'support_messages',
      'support_requests',
      'support_sessions',
      'user_device_schedules',
      'user_images',
      'users',
      'webhook_attempts',
      'webhook_credential_states',
      'webhook_deliveries',
      'webhook_endpoints',
      'zones',
    ]);
    await db.destroy();
  });

  it.runIf(process.env.TEST_DATABASE_URL)(
    'give SQLite and PostgreSQL the same tables and columns',
    async () => {
      const sqlite = openDatabase({ dataDir: fs.mkdtempSync(path.join(dataDir, 'agree-')) });
      await migrateToLatest(sqlite.db);
      const postgres = await TestApp.start();
      expect(postgres.app.dialect).toBe('postgres');
      expect(await shapeOf(postgres.app.db)).toEqual(await shapeOf(sqlite.db));
      await sqlite.db.destroy();
      await postgres.close();
    },
  );
});
