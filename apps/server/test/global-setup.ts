import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/database';
import { migrateToLatest } from '../src/db/migrate';

// The migrations run once for the whole suite, here, instead of once for each of its seventy-odd
// apps (half a second each on SQLite, more on PostgreSQL): every TestApp starts on a copy of the
// database they built (test-app.ts), a file copy on SQLite, CREATE DATABASE … TEMPLATE on PostgreSQL.

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated SQLite database file that each TestApp copies into its data folder. */
    migratedSqliteFile: string;
    /** A migrated PostgreSQL database each TestApp's database is created from (TEST_DATABASE_URL). */
    migratedPostgresTemplate: string | null;
  }
}

export default async function setup(project: TestProject) {
  const templateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'latchkey-template-'));
  const sqlite = openDatabase({ dataDir: templateDir });
  await migrateToLatest(sqlite.db);
  await sqlite.db.destroy(); // closing writes the WAL back: the file alone is the whole database
  project.provide('migratedSqliteFile', sqlite.description);

  const base = process.env.TEST_DATABASE_URL;
  const template = base ? `latchkey_template_${crypto.randomUUID().replace(/-/g, '').slice(0, 16)}` : null;
  if (base && template) {
    await adminQuery(base, `create database ${template}`);
    const url = new URL(base);
    url.pathname = `/${template}`;
    const postgres = openDatabase({ databaseUrl: url.toString(), dataDir: templateDir });
    await migrateToLatest(postgres.db);
    await postgres.db.destroy(); // a template is copied only while nobody is connected to it
  }
  project.provide('migratedPostgresTemplate', template);

  return async () => {
    if (base && template) await adminQuery(base, `drop database if exists ${template}`);
    fs.rmSync(templateDir, { recursive: true, force: true });
  };
}

async function adminQuery(base: string, statement: string) {
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
