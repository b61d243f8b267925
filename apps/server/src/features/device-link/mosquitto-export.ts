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
 * The locks' ACL file: every account, a lock, may only write its own lock topics and read its own
 * server topics (`%u` is the username, which is the device id).
 */
export function aclFile(): string {
  const lines = ['# Written by npm run mqtt:export. Locks: device id as username.', ''];
  for (const topic of LOCK_TOPICS) lines.push(`pattern write ${DEVICE_TOPIC_ROOT}/%u/${topic}`);
  for (const topic of SERVER_TOPICS) lines.push(`pattern read ${DEVICE_TOPIC_ROOT}/%u/${topic}`);
  return `${lines.join('\n')}\n`;
}

/** The servers' ACL file: their account reads and writes every lock topic (shared subscriptions too). */
export function serverAclFile(serverUsername: string | null): string {
  const lines = ['# Written by npm run mqtt:export. The servers (MQTT_URL).', ''];
  if (serverUsername) lines.push(`user ${serverUsername}`, `topic readwrite ${DEVICE_TOPIC_ROOT}/#`);
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

/** Where the exported files go in `dir`. */
export function mosquittoFilePaths(dir: string) {
  return {
    passwordPath: path.join(dir, 'passwd'),
    aclPath: path.join(dir, 'acl'),
    serverPasswordPath: path.join(dir, 'servers.passwd'),
    serverAclPath: path.join(dir, 'servers.acl'),
  };
}

/**
 * The part of mosquitto.conf the exported files need: two listeners with their own accounts
 * (`per_listener_settings`). On the locks' listener Mosquitto makes the username (the device id) the
 * client id, so a lock can neither take over another lock's session (its queued credential sets and
 * commands) nor push it off; the servers, which share one account and need a client id each, log in
 * on a listener of their own that locks cannot log in to. `lockListener`/`serverListener`: what
 * follows `listener` (a port, and an address to bind).
 */
export function mosquittoConf(
  dir: string,
  listeners: { lockListener: string; serverListener: string },
): string {
  const files = mosquittoFilePaths(dir);
  return [
    '# Latchkey (npm run mqtt:export): locks and servers each log in on their own listener.',
    'per_listener_settings true',
    '',
    '# Locks: the client id is the device id, whatever the lock sends.',
    `listener ${listeners.lockListener}`,
    'use_username_as_clientid true',
    'allow_anonymous false',
    `password_file ${files.passwordPath}`,
    `acl_file ${files.aclPath}`,
    '',
    "# Servers (MQTT_URL): only the servers' account; bind it where only servers reach it.",
    `listener ${listeners.serverListener}`,
    'allow_anonymous false',
    `password_file ${files.serverPasswordPath}`,
    `acl_file ${files.serverAclPath}`,
    '',
  ].join('\n');
}

/**
 * Writes the locks' `passwd` (owner-only) and `acl`, and the servers' `servers.passwd` and
 * `servers.acl` into `dir`; answers their paths and what went in.
 */
export async function exportMosquittoFiles(db: Database, dir: string, mqttUrl: string | undefined) {
  const { accounts, withoutHash } = await listBrokerAccounts(db);
  const server = serverAccount(mqttUrl);
  fs.mkdirSync(dir, { recursive: true });
  const files = mosquittoFilePaths(dir);
  // Write then rename, so a broker reloading meanwhile never reads half a file.
  const writeAtomically = (file: string, text: string, mode: number) => {
    const temporary = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, text, { mode });
    fs.renameSync(temporary, file);
  };
  writeAtomically(files.passwordPath, passwordFile(accounts), 0o600);
  writeAtomically(files.aclPath, aclFile(), 0o644);
  writeAtomically(files.serverPasswordPath, passwordFile(server ? [server] : []), 0o600);
  writeAtomically(files.serverAclPath, serverAclFile(server?.username ?? null), 0o644);
  return {
    ...files,
    locks: accounts.length,
    withoutHash,
    serverUsername: server?.username ?? null,
  };
}
