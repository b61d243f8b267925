import { parseArgs } from 'node:util';
import { readerKindSchema, type ReaderKind } from '@latchkey/shared';

export const READER_USAGE = `locksim --reader: a simulated desk enrollment reader (device protocol v1, §7)

Usage:
  npm run locksim -- --reader <readerId>:<secret> [--url mqtt://127.0.0.1:1883] [--kind both]

Options:
  --url <url>              broker URL (default mqtt://127.0.0.1:1883)
  --reader <id>:<secret>   the reader's id and secret (shown once when it was paired)
  --kind rfid|fingerprint|both   what it reads (default both)
  --heartbeat <seconds>    status heartbeat period (default 30; 0 = off)
  -h, --help               show this text

Commands on stdin:
  tap <uid>                tap an RFID card (hex UID): answers a waiting "tap a card now"
  finger <templateId>      enrol a finger: answers a waiting "scan a finger now" with its template id
  status                   show whether it is connected and what it waits for
  help | quit
`;

export interface ReaderCliConfig {
  url: string;
  readerId: string;
  secret: string;
  kind: ReaderKind;
  heartbeatSeconds: number;
}

export type ParsedReaderArgs = { help: true } | { help: false; config: ReaderCliConfig };

/** Whether a command line asks for a reader rather than locks. */
export function wantsReader(argv: readonly string[]): boolean {
  return argv.some((arg) => arg === '--reader' || arg.startsWith('--reader='));
}

export function parseReaderArgs(argv: readonly string[]): ParsedReaderArgs {
  const { values } = parseArgs({
    args: [...argv],
    strict: true,
    options: {
      url: { type: 'string', default: 'mqtt://127.0.0.1:1883' },
      reader: { type: 'string' },
      kind: { type: 'string', default: 'both' },
      heartbeat: { type: 'string', default: '30' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) return { help: true };
  const spec = values.reader ?? '';
  const colon = spec.indexOf(':');
  if (colon <= 0 || colon === spec.length - 1) throw new Error('--reader must be <readerId>:<secret>');
  const kind = readerKindSchema.safeParse(values.kind);
  if (!kind.success) throw new Error('--kind must be rfid, fingerprint or both');
  const heartbeatSeconds = Number(values.heartbeat);
  if (!Number.isInteger(heartbeatSeconds) || heartbeatSeconds < 0) {
    throw new Error('--heartbeat must be a whole number of seconds');
  }
  return {
    help: false,
    config: {
      url: values.url,
      readerId: spec.slice(0, colon),
      secret: spec.slice(colon + 1),
      kind: kind.data,
      heartbeatSeconds,
    },
  };
}

export type ReaderCommand =
  | { action: 'tap'; uid: string }
  | { action: 'finger'; templateId: string }
  | { action: 'status' }
  | { action: 'help' }
  | { action: 'quit' };

/** One stdin line: a command, an error to print, or null for a blank line. */
export function parseReaderCommand(line: string): { command: ReaderCommand } | { error: string } | null {
  const words = line.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return null;
  const [name, ...rest] = words;
  switch (name) {
    case 'tap':
    case 'card':
      // A UID may be printed with spaces between its bytes: "tap 04 A2 3B 1C".
      if (rest.length === 0) return { error: 'usage: tap <uid>' };
      return { command: { action: 'tap', uid: rest.join('') } };
    case 'finger':
      if (rest.length !== 1) return { error: 'usage: finger <templateId>' };
      return { command: { action: 'finger', templateId: rest[0]! } };
    case 'status':
    case 'help':
    case 'quit':
      return { command: { action: name } };
    default:
      return { error: `unknown command "${name}" (help lists them)` };
  }
}
