import { createInterface } from 'node:readline';
import { parseReaderArgs, parseReaderCommand, READER_USAGE } from './reader-cli-commands';
import { SimulatedReader } from './simulated-reader';

// `npm run locksim -- --reader <id>:<secret>`: one desk reader, driven from stdin (cli.ts hands over).

function print(line: string): void {
  process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);
}

export async function runReaderCli(argv: string[]): Promise<void> {
  let parsed;
  try {
    parsed = parseReaderArgs(argv);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${READER_USAGE}`);
    process.exitCode = 2;
    return;
  }
  if (parsed.help) {
    process.stdout.write(READER_USAGE);
    return;
  }
  const { config } = parsed;
  const reader = new SimulatedReader({
    url: config.url,
    readerId: config.readerId,
    secret: config.secret,
    kind: config.kind,
    heartbeatSeconds: config.heartbeatSeconds,
  });
  reader.on('connected', (id) => print(`${id} connected`));
  reader.on('disconnected', (id) => print(`${id} disconnected`));
  reader.on('enrollRequested', (request) =>
    print(
      `enrollment ${request.requestId}: ${request.kind === 'rfid' ? 'tap a card (tap <uid>)' : 'scan a finger (finger <templateId>)'} before ${request.expiresAt}`,
    ),
  );
  reader.on('answered', (result) =>
    print(
      result.ok
        ? `answered ${result.requestId}: ${result.kind} ${result.value}`
        : `answered ${result.requestId}: ${result.error}`,
    ),
  );
  reader.on('requestEnded', ({ requestId, why }) => print(`enrollment ${requestId} ${why}`));
  reader.on('ignored', ({ topic, reason }) => print(`ignored ${topic}: ${reason}`));
  reader.on('connectionError', (error) => print(`connection error: ${error.message}`));

  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    print('stopping: the reader says online:false and disconnects');
    await reader.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());

  print(`connecting reader ${config.readerId} (${config.kind}) to ${config.url}`);
  reader.start().catch((error: Error) => print(`refused: ${error.message}`));

  const input = createInterface({ input: process.stdin });
  input.on('line', async (line) => {
    const command = parseReaderCommand(line);
    if (command === null) return;
    if ('error' in command) return print(command.error);
    const { command: c } = command;
    try {
      switch (c.action) {
        case 'help':
          process.stdout.write(READER_USAGE);
          return;
        case 'quit':
          return shutdown();
        case 'status': {
          const waiting = reader.pending;
          print(
            `${reader.readerId}: ${reader.online ? 'online' : 'offline'}, ${waiting ? `waiting for ${waiting.kind} (${waiting.requestId}) until ${waiting.expiresAt}` : 'nothing asked'}`,
          );
          return;
        }
        case 'tap':
        case 'finger': {
          const outcome = c.action === 'tap' ? await reader.tap(c.uid) : await reader.finger(c.templateId);
          if (!outcome.answered) print(`not sent: ${outcome.reason}`);
          return;
        }
      }
    } catch (error) {
      print((error as Error).message);
    }
  });
  input.on('close', () => {
    if (!stopping) print('stdin closed; the reader keeps running until SIGINT/SIGTERM');
  });
}
