import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CompiledQuery, sql, type KyselyPlugin, type RootOperationNode } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { appendAuditEntry, listAuditEntries } from '../src/base/audit/audit.repository';
import { openDatabase, type Database } from '../src/db/database';
import { migrateTo, migrateToLatest } from '../src/db/migrate';

// A lock's history (its History tab, the activity feed's lock filter) is read from
// audit_log_devices by (portal, lock, time): these tests hold the backfill that put every older
// entry there and the SQLite plan that reads a page without walking the portal's whole log.

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'latchkey-lock-history-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const PORTAL = 'portal-1';
const isoAt = (minute: number) => new Date(Date.UTC(2026, 10, 1, 0, minute)).toISOString();

/** The SQL each query run through the returned database compiles to, in order. */
function recordingQueries(db: Database): { db: Database; queries: CompiledQuery[] } {
  const queries: CompiledQuery[] = [];
  const plugin: KyselyPlugin = {
    transformQuery: ({ node, queryId }) => {
      queries.push(db.getExecutor().compileQuery(node as RootOperationNode, queryId));
      return node;
    },
    transformResult: async ({ result }) => result,
  };
  return { db: db.withPlugin(plugin), queries };
}

describe("a lock's history", () => {
  it('gets every older entry about a lock, with its time, from migration 0054', async () => {
    const { db } = openDatabase({ dataDir: fs.mkdtempSync(path.join(dataDir, 'backfill-')) });
    await migrateTo(db, '2026-11-28-0053-audit-log-devices');
    // Rows as the code before 0054 wrote them; the portal itself is beside the point here.
    await sql`PRAGMA foreign_keys = OFF`.execute(db);
    const entry = (id: string, minute: number, deviceId: string | null) =>
      sql`INSERT INTO audit_log (id, portal_id, action, entity_type, entity_id, device_id, created_at)
          VALUES (${id}, ${PORTAL}, 'device.update', 'device', ${deviceId ?? 'x'}, ${deviceId}, ${isoAt(minute)})`.execute(
        db,
      );
    await entry('single', 1, 'lock-a');
    await entry('lockout', 2, null);
    await entry('nothing', 3, null);
    await sql`INSERT INTO audit_log_devices (audit_id, portal_id, device_id)
        VALUES ('lockout', ${PORTAL}, 'lock-a'), ('lockout', ${PORTAL}, 'lock-b')`.execute(db);

    await migrateToLatest(db);
    const rows = await db
      .selectFrom('audit_log_devices')
      .select(['audit_id', 'device_id', 'created_at'])
      .orderBy('audit_id')
      .orderBy('device_id')
      .execute();
    expect(rows).toEqual([
      { audit_id: 'lockout', device_id: 'lock-a', created_at: isoAt(2) },
      { audit_id: 'lockout', device_id: 'lock-b', created_at: isoAt(2) },
      { audit_id: 'single', device_id: 'lock-a', created_at: isoAt(1) },
    ]);
    const history = await listAuditEntries(db, PORTAL, {
      skip: 0,
      limit: 10,
      descending: true,
      filter: { deviceId: 'lock-a' },
    });
    expect(history.rows.map((row) => row.id)).toEqual(['lockout', 'single']);
    expect(history.total).toBe(2);
    await db.destroy();
  });

  it("reads one lock's page from its own index on SQLite, in order, without a sort", async () => {
    const { db: plain } = openDatabase({ dataDir: fs.mkdtempSync(path.join(dataDir, 'plan-')) });
    await migrateToLatest(plain);
    await sql`PRAGMA foreign_keys = OFF`.execute(plain);
    // A busy portal: many changes to other locks, a few to the one asked for, one lockout naming it.
    for (let i = 0; i < 300; i += 1) {
      await appendAuditEntry(plain, PORTAL, {
        actorUserId: null,
        action: 'device.update',
        entityType: 'device',
        entityId: i % 50 === 0 ? 'quiet-lock' : `lock-${i % 7}`,
      });
    }
    await appendAuditEntry(plain, PORTAL, {
      actorUserId: null,
      action: 'lockout.create',
      entityType: 'lockout',
      entityId: crypto.randomUUID(),
      deviceIds: ['quiet-lock', 'lock-1'],
    });
    await sql`ANALYZE`.execute(plain);

    const { db, queries } = recordingQueries(plain);
    const page = await listAuditEntries(db, PORTAL, {
      skip: 0,
      limit: 5,
      descending: true,
      filter: { deviceId: 'quiet-lock' },
      before: new Date(Date.now() + 60_000).toISOString(),
    });
    expect(page.rows.map((row) => row.action)).toEqual(['lockout.create', ...Array(4).fill('device.update')]);
    expect(page.total).toBe(7);

    const pageQuery = queries.find((q) => /order by/i.test(q.sql))!;
    const plan = await plain.executeQuery<{ detail: string }>(
      CompiledQuery.raw(`EXPLAIN QUERY PLAN ${pageQuery.sql}`, [...pageQuery.parameters]),
    );
    const steps = plan.rows.map((row) => row.detail);
    // The lock's rows first, by its index (portal, lock, time); each entry then by its key.
    expect(steps[0]).toMatch(/SEARCH ad USING (COVERING )?INDEX audit_log_devices_lock_history_idx/);
    expect(steps[1]).toMatch(/SEARCH a USING .*\(id=\?\)/);
    expect(steps.join('\n')).not.toMatch(/TEMP B-TREE|SCAN a\b/);
    await plain.destroy();
  });
});
