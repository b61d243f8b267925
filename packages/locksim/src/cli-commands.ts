import { parseArgs } from 'node:util';
import { credentialKindSchema } from '@latchkey/shared';
import { z } from 'zod';
import type { FleetLockSpec } from './lock-fleet';
import { DEFAULT_LOCK_MODEL, type LockModel } from './lock-model';
import type { OfflineMode } from './simulated-lock';

export const USAGE = `locksim: simulated Latchkey locks speaking device protocol v1 over MQTT

Usage:
  npm run locksim -- --url mqtt://127.0.0.1:1883 --lock <deviceId>:<secret> [--lock ...]
  npm run locksim -- --url mqtt://127.0.0.1:1883 --locks-file locks.json
  npm run locksim -- --url mqtt://127.0.0.1:1883 --reader <readerId>:<secret>   (a desk reader: --reader --help)

Options:
  --url <url>             broker URL (default mqtt://127.0.0.1:1883)
  --lock <id>:<secret>    a lock to run; repeatable
  --locks-file <file>     JSON array of { "deviceId", "secret", "kinds"?, "battery"?, "firmware"? }
  --kinds <k1,k2,...>     credential kinds the locks support (default: all of
                          ${DEFAULT_LOCK_MODEL.supportedKinds.join(', ')}); others are rejected
  --capacity <n>          credentials a lock can store (default ${DEFAULT_LOCK_MODEL.capacity})
  --heartbeat <seconds>   status heartbeat period (default 30; 0 = off)
  --relock <seconds>      lock again this long after an unlock (default: stay unlocked)
  --state-dir <dir>       keep each lock's credential set and unacknowledged events there
  --quiet                 print only decisions, acks and errors, not every status and event
  -h, --help              show this text

Commands on stdin (<lock> is a device id, or * for every lock):
  code <lock> <pin>         enter a PIN on the keypad
  card <lock> <uid>         tap an RFID card (hex UID)
  finger <lock> <template>  present a fingerprint (template id)
  qr <lock> <token>         scan a QR code (a token from POST user/qr)
  carry <lock> <token>      a phone hands over credentials (POST device/{id}/synclock/user/token)
  key <lock> <keyId>        present a key
  turn <lock>               turn the thumb turn from inside (toggles the bolt)
  ajar <lock> | closed <lock>   the door opens / closes
  tamper <lock>             someone forces the lock
  drain <lock> <percent>    take percent points off the battery
  offline <lock> [drop|clean]   lose the connection (drop: broker sends the last will) or leave cleanly
  online <lock>             come back; unacknowledged events are resent
  status [<lock>]           show lock state, battery, credential version, pending events
  help | quit
`;

const lockSpecFileSchema = z.array(
  z.object({
    deviceId: z.string().min(1),
    secret: z.string().min(1),
    kinds: z.array(credentialKindSchema).optional(),
    capacity: z.number().int().positive().optional(),
    battery: z.number().int().min(0).max(100).optional(),
    firmware: z.string().min(1).optional(),
  }),
);

export interface CliConfig {
  url: string;
  locks: FleetLockSpec[];
  locksFile: string | null;
  model: LockModel;
  heartbeatSeconds: number;
  autoRelockSeconds: number | null;
  stateDir: string | null;
  quiet: boolean;
}

export type ParsedArgs = { help: true } | { help: false; config: CliConfig };

/** The command line, without reading the locks file (the CLI adds its locks with parseLocksFile). */
export function parseCliArgs(argv: readonly string[]): ParsedArgs {
  const { values } = parseArgs({
    args: [...argv],
    strict: true,
    options: {
      url: { type: 'string', default: 'mqtt://127.0.0.1:1883' },
      lock: { type: 'string', multiple: true, default: [] },
      'locks-file': { type: 'string' },
      kinds: { type: 'string' },
      capacity: { type: 'string' },
      heartbeat: { type: 'string', default: '30' },
      relock: { type: 'string' },
      'state-dir': { type: 'string' },
      quiet: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) return { help: true };
  const locks = values.lock.map(parseLockArgument);
  if (locks.length === 0 && !values['locks-file']) {
    throw new Error('give at least one --lock <deviceId>:<secret> or a --locks-file');
  }
  return {
    help: false,
    config: {
      url: values.url,
      locks,
      locksFile: values['locks-file'] ?? null,
      model: {
        supportedKinds: values.kinds ? parseKinds(values.kinds) : DEFAULT_LOCK_MODEL.supportedKinds,
        capacity: values.capacity
          ? parseWholeNumber('--capacity', values.capacity, 1)
          : DEFAULT_LOCK_MODEL.capacity,
      },
      heartbeatSeconds: parseWholeNumber('--heartbeat', values.heartbeat, 0),
      autoRelockSeconds: values.relock ? parseWholeNumber('--relock', values.relock, 1) : null,
      stateDir: values['state-dir'] ?? null,
      quiet: values.quiet,
    },
  };
}

/** `<deviceId>:<secret>`; the secret may itself contain colons, the device id may not. */
export function parseLockArgument(argument: string): FleetLockSpec {
  const colon = argument.indexOf(':');
  if (colon <= 0 || colon === argument.length - 1) {
    throw new Error(`--lock expects <deviceId>:<secret>, got "${argument}"`);
  }
  return { deviceId: argument.slice(0, colon), secret: argument.slice(colon + 1) };
}

/** The locks file: a JSON array of locks, each with optional kinds, capacity, battery, firmware. */
export function parseLocksFile(text: string, defaultModel: LockModel): FleetLockSpec[] {
  const specs = lockSpecFileSchema.parse(JSON.parse(text));
  return specs.map(({ kinds, capacity, ...spec }) =>
    kinds || capacity
      ? {
          ...spec,
          model: {
            supportedKinds: kinds ?? defaultModel.supportedKinds,
            capacity: capacity ?? defaultModel.capacity,
          },
        }
      : spec,
  );
}

function parseKinds(list: string) {
  return list.split(',').map((kind) => {
    const result = credentialKindSchema.safeParse(kind.trim());
    if (!result.success) throw new Error(`--kinds: unknown credential kind "${kind}"`);
    return result.data;
  });
}

function parseWholeNumber(name: string, text: string, min: number): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} expects a whole number ≥ ${min}`);
  return value;
}

/** Presentations at a reader: the word typed on stdin → the lock method it calls. */
export const PRESENT_ACTIONS = ['code', 'card', 'finger', 'qr', 'key'] as const;
export type PresentAction = (typeof PRESENT_ACTIONS)[number];
const SIMPLE_ACTIONS = ['turn', 'ajar', 'closed', 'tamper', 'online'] as const;
export type SimpleAction = (typeof SIMPLE_ACTIONS)[number];

export type StdinCommand =
  | { action: PresentAction; target: string; secret: string }
  | { action: SimpleAction; target: string }
  | { action: 'offline'; target: string; mode: OfflineMode }
  | { action: 'drain'; target: string; percent: number }
  | { action: 'carry'; target: string; token: string }
  | { action: 'status'; target: string | null }
  | { action: 'help' }
  | { action: 'quit' };

export type ParsedLine = { command: StdinCommand } | { error: string } | null;

const includes = <T extends string>(list: readonly T[], word: string): word is T =>
  (list as readonly string[]).includes(word);

/** One stdin line → a command; null for a blank line or a # comment. */
export function parseCommandLine(line: string): ParsedLine {
  const words = line.trim().split(/\s+/).filter(Boolean);
  const [action, target, argument, ...extra] = words;
  if (action === undefined || action.startsWith('#')) return null;
  const word = action.toLowerCase();
  if (word === 'help' || word === 'quit' || word === 'exit') {
    return { command: { action: word === 'exit' ? 'quit' : word } };
  }
  if (word === 'status') {
    return argument === undefined ? { command: { action: 'status', target: target ?? null } } : usage(word);
  }
  if (!Object.hasOwn(LINE_USAGE, word)) return { error: `unknown command "${action}" (type help)` };
  if (target === undefined) return usage(word);
  if (includes(PRESENT_ACTIONS, word)) {
    return argument !== undefined && extra.length === 0
      ? { command: { action: word, target, secret: argument } }
      : usage(word);
  }
  if (includes(SIMPLE_ACTIONS, word)) {
    return argument === undefined ? { command: { action: word, target } } : usage(word);
  }
  if (word === 'offline') {
    const mode = argument ?? 'drop';
    return (mode === 'drop' || mode === 'clean') && extra.length === 0
      ? { command: { action: 'offline', target, mode } }
      : usage(word);
  }
  if (word === 'carry') {
    return argument !== undefined && extra.length === 0
      ? { command: { action: 'carry', target, token: argument } }
      : usage(word);
  }
  if (word === 'drain') {
    const percent = Number(argument);
    return argument !== undefined &&
      extra.length === 0 &&
      Number.isInteger(percent) &&
      percent > 0 &&
      percent <= 100
      ? { command: { action: 'drain', target, percent } }
      : usage(word);
  }
  return { error: `unknown command "${action}" (type help)` };
}

const LINE_USAGE: Record<string, string> = {
  code: 'code <lock> <pin>',
  card: 'card <lock> <uid>',
  finger: 'finger <lock> <templateId>',
  qr: 'qr <lock> <token>',
  key: 'key <lock> <keyId>',
  turn: 'turn <lock>',
  ajar: 'ajar <lock>',
  closed: 'closed <lock>',
  tamper: 'tamper <lock>',
  online: 'online <lock>',
  offline: 'offline <lock> [drop|clean]',
  drain: 'drain <lock> <percent 1-100>',
  carry: 'carry <lock> <token>',
  status: 'status [<lock>]',
};

function usage(word: string): ParsedLine {
  return { error: `usage: ${LINE_USAGE[word] ?? word}` };
}
