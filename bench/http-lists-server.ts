/**
 * The servers bench/http-lists.bench.ts measures, in one process of their own (the load generator
 * runs in the parent, on the other core): the whole server (buildApp, as `npm start` runs it) and a
 * bare Fastify route that answers the same page of locks from the same database (the repository
 * query, the presenter, JSON.stringify; no token, no tenancy, no validation, no hooks). Seeds the
 * large portal first; prints one JSON line with both addresses and a session token.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { encodeListCursor } from '@latchkey/shared';
import Fastify from 'fastify';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { toCount } from '../apps/server/src/db/mappers';
import { largePortalSize, seedLargePortal } from '../apps/server/src/demo/seed-large';
import { issueSessionToken } from '../apps/server/src/base/identity/sessions';
import { findUserByEmail } from '../apps/server/src/base/identity/users.repository';
import { toDevice } from '../apps/server/src/features/devices/device.presenter';
import { listDevices, type DeviceSortField } from '../apps/server/src/features/devices/devices.repository';
import { listPortalMembers } from '../apps/server/src/base/tenancy/memberships.repository';
import { toPortalMember } from '../apps/server/src/base/tenancy/portal.presenter';

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'latchkey-http-bench-'));
  const app = await buildApp(
    loadConfig({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      DEMO_DATA: 'false',
      MAIL_POLL_MS: '0',
      MQTT_PORT: '0',
      WEB_DIST: path.join(dataDir, 'no-web'),
      ...(process.env.DATABASE_URL && { DATABASE_URL: process.env.DATABASE_URL }),
    }),
  );
  const people = Number(process.env.HTTP_BENCH_PEOPLE ?? 50_000);
  const started = Date.now();
  const { portalId, ownerEmail } = await seedLargePortal(app.db, largePortalSize(people));
  const seconds = (Date.now() - started) / 1000;
  const owner = (await findUserByEmail(app.db, ownerEmail))!;
  const { token } = await issueSessionToken(app.secrets.jwtKey, owner, 24);
  const full = await app.listen({ port: 0, host: '127.0.0.1' });

  const bare = Fastify({ logger: false });
  bare.get('/devices', async (request) => {
    const query = request.query as Record<string, string | undefined>;
    const { rows, total, next } = await listDevices(app.db, portalId, {
      skip: Number(query.skip ?? 0),
      limit: Number(query.limit ?? 25),
      sortBy: (query.sortBy ?? 'name') as DeviceSortField,
      descending: query.descending === 'true',
      ...(query.search && { search: query.search }),
    });
    return {
      items: rows.map(toDevice),
      total: toCount(total),
      ...(next && { next: encodeListCursor(next) }),
    };
  });
  bare.get('/users', async (request) => {
    const query = request.query as Record<string, string | undefined>;
    const { rows, total } = await listPortalMembers(
      app.db,
      portalId,
      {
        skip: Number(query.skip ?? 0),
        limit: Number(query.limit ?? 25),
        descending: false,
        ...(query.search && { search: query.search }),
      },
      {},
    );
    return { items: rows.map(toPortalMember), total };
  });
  const bareAddress = await bare.listen({ port: 0, host: '127.0.0.1' });

  console.log(JSON.stringify({ full, bare: bareAddress, token, dialect: app.dialect, people, seconds }));
  const stop = async () => {
    await bare.close();
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
