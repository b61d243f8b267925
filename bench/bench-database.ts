import crypto from 'node:crypto';
import pg from 'pg';

/**
 * A fresh PostgreSQL database for one bench run when BENCH_DATABASE_URL is set (made from it and
 * dropped after); without it, no URL: the bench runs on SQLite in its data folder.
 */
export async function benchDatabase(prefix: string): Promise<{ url?: string; drop: () => Promise<void> }> {
  const base = process.env.BENCH_DATABASE_URL;
  if (!base) return { drop: async () => {} };
  const name = `latchkey_${prefix}_${crypto.randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}
