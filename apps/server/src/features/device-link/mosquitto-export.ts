import fs from 'node:fs';
import path from 'node:path';
import { DEVICE_TOPIC_ROOT, LOCK_TOPICS, SERVER_TOPICS } from '@latchkey/shared';
import type { Database } from '../../db/database';
import { brokerPasswordHash } from '../devices/devices.service';

/** A lock the broker should admit: its device id and its secret's $7$ hash. */
export interface BrokerAccount {
  username: string;
  passwordHash: string;
}

/**
 * Every live lock with a broker hash, in every portal (the broker serves them all), and the number
 * of live locks without one (added before the hash was kept; their secret must be issued again).
 */
export async function listBrokerAccounts(db: Database) {
  const rows = await db
    .selectFrom('devices')
    .select(['id', 'broker_password_hash'])
    .where('deleted_at', 'is', null)
    .orderBy('id')
    .execute();
  const accounts: BrokerAccount[] = rows
    .filter((row) => row.broker_password_hash)
    .map((row) => ({ username: row.id, passwordHash: row.broker_password_hash! }));
  return { accounts, withoutHash: rows.length - accounts.length };
}

/** Mosquitto's password file: `username:$7$…` per line. */
export function passwordFile(accounts: BrokerAccount[]): string {
  return accounts.map((a) => `${a.username}:${a.passwordHash}\n`).join('');
}

/**
 * Mosquitto's ACL file: the server's account reads and writes every lock topic (and shares the
 * lock topics through `$share/latchkey/…`); every other account, a lock, may only write its own
 * lock topics and read its own server topics (`%u` is the username, which is the device id).
 */
export function aclFile(serverUsername: string | null): string {
  const lines = ['# Written by npm run mqtt:export. Locks: device id as username.', ''];
  if (serverUsername) {
    lines.push(`user ${serverUsername}`, `topic readwrite ${DEVICE_TOPIC_ROOT}/#`, '');
  }
  lines.push('# Any account, limited to topics under its own name.');
  for (const topic of LOCK_TOPICS) lines.push(`pattern write ${DEVICE_TOPIC_ROOT}/%u/${topic}`);
  for (const topic of SERVER_TOPICS) lines.push(`pattern read ${DEVICE_TOPIC_ROOT}/%u/${topic}`);
  return `${lines.join('\n')}\n`;
}

/** The server's own account from MQTT_URL (user:password@), hashed for the password file. */
export function serverAccount(mqttUrl: string | undefined): BrokerAccount | null {
  if (!mqttUrl) return null;
  const url = new URL(mqttUrl);
  if (!url.username || !url.password) return null;
  return {
    username: decodeURIComponent(url.username),
    passwordHash: brokerPasswordHash(decodeURIComponent(url.password)),
  };
}

/** Writes `passwd` (owner-only) and `acl` into `dir`; answers their paths and what went in. */
export async function exportMosquittoFiles(db: Database, dir: string, mqttUrl: string | undefined) {
  const { accounts, withoutHash } = await listBrokerAccounts(db);
  const server = serverAccount(mqttUrl);
  fs.mkdirSync(dir, { recursive: true });
  const passwordPath = path.join(dir, 'passwd');
  const aclPath = path.join(dir, 'acl');
  // Write then rename, so a broker reloading meanwhile never reads half a file.
  const writeAtomically = (file: string, text: string, mode: number) => {
    const temporary = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, text, { mode });
    fs.renameSync(temporary, file);
  };
  writeAtomically(passwordPath, passwordFile(server ? [server, ...accounts] : accounts), 0o600);
  writeAtomically(aclPath, aclFile(server?.username ?? null), 0o644);
  return {
    passwordPath,
    aclPath,
    locks: accounts.length,
    withoutHash,
    serverUsername: server?.username ?? null,
  };
}
