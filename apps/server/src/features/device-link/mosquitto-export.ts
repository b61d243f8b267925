import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { DEVICE_TOPIC_ROOT, LOCK_TOPICS, SERVER_TOPICS } from '@latchkey/shared';
import type { Database } from '../../db/database';
import { brokerPasswordHash, verifyBrokerPassword } from '../devices/devices.service';

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
 * Who should own the written files: the user Mosquitto runs as. Mosquitto started as root drops
 * to its `mosquitto` user before it reads the password files, which are owner-only.
 */
export interface FileOwner {
  name: string;
  uid: number;
  gid: number;
}

/**
 * How many of the servers' messages Mosquitto queues per client behind its in-flight window
 * (`max_queued_messages`, global in Mosquitto 2.0). The servers size their own window (MQTT 5
 * Receive Maximum, SERVER_RECEIVE_MAXIMUM in external-broker.ts), so their queue is that window
 * plus this; for a lock, this bounds what waits for it while it is offline (its credential sets and
 * commands, which only the servers send).
 */
export const MAX_QUEUED_MESSAGES = 1000;
/** Messages Mosquitto has on their way to one lock at once, unacknowledged (`max_inflight_messages`). */
export const LOCK_MAX_INFLIGHT = 20;

/**
 * The part of mosquitto.conf the exported files need: two listeners with their own accounts
 * (`per_listener_settings`). On the locks' listener Mosquitto makes the username (the device id) the
 * client id, so a lock can neither take over another lock's session (its queued credential sets and
 * commands) nor push it off; the servers, which share one account and need a client id each, log in
 * on a listener of their own that locks cannot log in to. `lockListener`/`serverListener`: what
 * follows `listener` (a port, and an address to bind). `pidFile`: where Mosquitto writes its process
 * id, for `npm run mqtt:export -- --watch --reload` to signal it.
 */
export function mosquittoConf(
  dir: string,
  listeners: { lockListener: string; serverListener: string; pidFile?: string },
): string {
  const files = mosquittoFilePaths(dir);
  return [
    '# Latchkey (npm run mqtt:export): locks and servers each log in on their own listener.',
    'per_listener_settings true',
    ...(listeners.pidFile ? [`pid_file ${listeners.pidFile}`] : []),
    '',
    '# Queues (docs/decisions.md, "Broker sizing"). Every server asks for 65,535 messages in flight',
    "# itself (MQTT 5 Receive Maximum), so a fleet's events are never dropped on their way to the",
    '# servers; locks keep this window. The queue holds what waits for a client beyond its window,',
    '# e.g. a lock offline with its credential sets and commands.',
    `max_inflight_messages ${LOCK_MAX_INFLIGHT}`,
    `max_queued_messages ${MAX_QUEUED_MESSAGES}`,
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

/** What an export wrote, and whether the locks' accounts changed since the files were last written. */
export interface ExportResult {
  passwordPath: string;
  aclPath: string;
  serverPasswordPath: string;
  serverAclPath: string;
  locks: number;
  withoutHash: number;
  serverUsername: string | null;
  /** The password files differ from what was there before (a lock added, deleted or given a new secret). */
  changed: boolean;
}

/**
 * Writes the locks' `passwd` (owner-only) and `acl`, and the servers' `servers.passwd` and
 * `servers.acl` into `dir`, owned by `owner` when given (the process must be root to give them
 * away); answers their paths and what went in.
 */
export async function exportMosquittoFiles(
  db: Database,
  dir: string,
  mqttUrl: string | undefined,
  options: { owner?: FileOwner | null } = {},
): Promise<ExportResult> {
  const { accounts, withoutHash } = await listBrokerAccounts(db);
  const server = serverAccount(mqttUrl);
  fs.mkdirSync(dir, { recursive: true });
  const files = mosquittoFilePaths(dir);
  const owner = options.owner ?? null;
  // Write then rename, so a broker reloading meanwhile never reads half a file; a file whose text
  // is the same is left as it is (the server's hash is salted anew each time, so it always differs
  // and is only rewritten when its account changed).
  const writeAtomically = (file: string, text: string, mode: number) => {
    const temporary = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, text, { mode });
    fs.chmodSync(temporary, mode); // writeFileSync's mode is masked by the umask
    if (owner) fs.chownSync(temporary, owner.uid, owner.gid);
    fs.renameSync(temporary, file);
  };
  const writeIfChanged = (file: string, text: string, mode: number) => {
    const before = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null;
    if (before === text) {
      if (owner) fs.chownSync(file, owner.uid, owner.gid);
      return false;
    }
    writeAtomically(file, text, mode);
    return true;
  };
  const locksChanged = writeIfChanged(files.passwordPath, passwordFile(accounts), 0o600);
  writeIfChanged(files.aclPath, aclFile(), 0o644);
  const serverUsername = server?.username ?? null;
  const serverChanged = !sameServerAccount(files.serverPasswordPath, mqttUrl);
  if (serverChanged) writeAtomically(files.serverPasswordPath, passwordFile(server ? [server] : []), 0o600);
  else if (owner) fs.chownSync(files.serverPasswordPath, owner.uid, owner.gid);
  writeIfChanged(files.serverAclPath, serverAclFile(serverUsername), 0o644);
  return {
    ...files,
    locks: accounts.length,
    withoutHash,
    serverUsername,
    changed: locksChanged || serverChanged,
  };
}

/** Whether the servers' password file already admits exactly MQTT_URL's account. */
function sameServerAccount(file: string, mqttUrl: string | undefined): boolean {
  if (!fs.existsSync(file)) return false;
  const lines = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean);
  const url = mqttUrl ? new URL(mqttUrl) : null;
  if (!url?.username || !url.password) return lines.length === 0;
  if (lines.length !== 1) return false;
  const [username, hash] = splitOnce(lines[0]!, ':');
  return (
    username === decodeURIComponent(url.username) &&
    verifyBrokerPassword(decodeURIComponent(url.password), hash)
  );
}

function splitOnce(text: string, separator: string): [string, string] {
  const at = text.indexOf(separator);
  return at < 0 ? [text, ''] : [text.slice(0, at), text.slice(at + 1)];
}

/** The user named `name` on this machine (`id`, so directory users count too), or null. */
export function fileOwnerNamed(name: string): FileOwner | null {
  try {
    const id = (flag: string) => Number(execFileSync('id', [flag, name], { encoding: 'utf8' }).trim());
    return { name, uid: id('-u'), gid: id('-g') };
  } catch {
    return null;
  }
}

/**
 * Keeps the exported files in step with the database: every `everyMs` the accounts are read again,
 * and when a lock was added, deleted or given a new secret the files are rewritten and Mosquitto
 * (its process id in `pidFile`) told to reload them with SIGHUP. On reload Mosquitto checks every
 * connected client against the new password file and disconnects those it no longer lists, so a
 * deleted lock is off the broker within one period, without anyone running the export again.
 * Stops when `signal` aborts.
 */
export async function watchMosquittoFiles(
  db: Database,
  dir: string,
  mqttUrl: string | undefined,
  options: {
    everyMs: number;
    pidFile: string | null;
    owner: FileOwner | null;
    signal: AbortSignal;
    report: (line: string) => void;
  },
): Promise<void> {
  while (!options.signal.aborted) {
    await new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        options.signal.removeEventListener('abort', wake);
        resolve();
      }, options.everyMs);
      options.signal.addEventListener('abort', wake, { once: true });
    });
    if (options.signal.aborted) return;
    try {
      const result = await exportMosquittoFiles(db, dir, mqttUrl, { owner: options.owner });
      if (!result.changed) continue;
      const reloaded = options.pidFile ? reloadMosquitto(options.pidFile) : null;
      options.report(
        `the locks' accounts changed: rewrote ${result.passwordPath} (${result.locks} locks)` +
          (reloaded === null ? '' : reloaded ? `; Mosquitto reloaded` : `; Mosquitto not running?`),
      );
    } catch (error) {
      // The database or the folder may be back next time: say so and keep watching.
      options.report(`export failed, trying again in ${options.everyMs / 1000} s: ${String(error)}`);
    }
  }
}

/** Sends SIGHUP to the Mosquitto whose process id `pidFile` holds; false when there is none. */
export function reloadMosquitto(pidFile: string): boolean {
  try {
    const pid = Number(fs.readFileSync(pidFile, 'utf8').trim());
    if (!Number.isInteger(pid) || pid <= 0) return false;
    process.kill(pid, 'SIGHUP');
    return true;
  } catch {
    return false;
  }
}
