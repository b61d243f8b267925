import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../../../apps/server/src/app';
import { loadConfig } from '../../../apps/server/src/config';
import { generateSchema } from './schema-source';

// Writes src/schema.d.ts from the OpenAPI document the server serves: the app is built in this
// process over a throw-away SQLite database (no port, no demo data) and asked for GET /api3/openapi.json.

const here = path.dirname(fileURLToPath(import.meta.url));
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'latchkey-client-'));
const app = await buildApp(
  loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    DEMO_DATA: 'false',
    DEMO_LOCKS: 'false',
    MAIL_POLL_MS: '0',
    BILLING_CLOSE_INTERVAL_S: '0',
    MQTT_PORT: '0',
    WEB_DIST: path.join(dataDir, 'no-web'),
  }),
);
try {
  await app.ready();
  const document = (await app.inject({ method: 'GET', url: '/api3/openapi.json' })).json();
  const target = path.join(here, '..', 'src', 'schema.d.ts');
  fs.writeFileSync(target, await generateSchema(document));
  console.log(`wrote ${path.relative(process.cwd(), target)}`);
} finally {
  await app.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
