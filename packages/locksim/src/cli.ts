import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import {
  parseCliArgs,
  parseCommandLine,
  parseLocksFile,
  USAGE,
  type CliConfig,
  type StdinCommand,
} from './cli-commands';
import { LockFleet } from './lock-fleet';
import { wantsReader } from './reader-cli-commands';
import { runReaderCli } from './reader-cli';
import type { SimulatedLock } from './simulated-lock';

// A thin shell over LockFleet: parse, print what the locks report, turn stdin lines into calls.

function print(line: string): void {
  process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);
}

function loadConfig(argv: string[]): CliConfig | null {
  const parsed = parseCliArgs(argv);
  if (parsed.help) return null;
  const { config } = parsed;
  if (config.locksFile) {
    config.locks.push(...parseLocksFile(readFileSync(config.locksFile, 'utf8'), config.model));
  }
  return config;
}

function report(fleet: LockFleet, quiet: boolean): void {
  fleet.on('connected', (deviceId) => print(`${deviceId} connected`));
  fleet.on('disconnected', (deviceId) => print(`${deviceId} disconnected`));
  fleet.on('access', ({ deviceId, presented, decision }) => {
    const verdict = decision.granted ? 'GRANTED' : `DENIED (${decision.reason})`;
    const credential = decision.credentialId ? ` credential ${decision.credentialId}` : '';
    print(`${deviceId} ${presented.kind} ${presented.secret} → ${verdict}${credential}`);
  });
  fleet.on('credentialsApplied', ({ deviceId, version, entries, rejected }) => {
    const refused = rejected.map((entry) => `${entry.credentialId}:${entry.reason}`).join(', ');
    print(
      `${deviceId} credentials v${version} applied: ${entries} kept${refused ? `, rejected ${refused}` : ''}`,
    );
  });
  fleet.on('eventsAcked', ({ deviceId, dropped, pending }) => {
    print(`${deviceId} events acked: ${dropped.length} dropped, ${pending} pending`);
  });
  fleet.on('command', ({ deviceId, command, ack, repeated }) => {
    const outcome = ack.ok ? 'ok' : `refused (${ack.error})`;
    print(
      `${deviceId} command ${command.commandId} ${command.action} → ${outcome}${repeated ? ' [repeat]' : ''}`,
    );
  });
  fleet.on('ignored', ({ deviceId, topic, reason }) => print(`${deviceId} ignored ${topic}: ${reason}`));
  fleet.on('connectionError', (error) => print(`connection error: ${error.message}`));
  if (quiet) return;
  fleet.on('event', (deviceId, event) => {
    const details = [event.method, event.credentialId, event.reason].filter(Boolean).join(' ');
    print(`${deviceId} event ${event.type}${details ? ` ${details}` : ''} (${event.eventId})`);
  });
  fleet.on('status', (deviceId, status) => {
    if (status.online) {
      print(
        `${deviceId} status: battery ${status.battery}%, ${status.lockState}, v${status.credentialsVersion}`,
      );
    }
  });
}

function describe(lock: SimulatedLock): string {
  const s = lock.snapshot();
  return (
    `${s.deviceId}: ${s.online ? 'online' : 'offline'}, ${s.lockState}, door ${s.doorOpen ? 'open' : 'closed'}, ` +
    `battery ${s.battery}%, credentials v${s.credentialsVersion} (${s.entries} entries), ` +
    `${s.pendingEvents} events pending`
  );
}

async function run(fleet: LockFleet, command: Exclude<StdinCommand, { action: 'help' | 'quit' }>) {
  if (command.action === 'status') {
    const locks =
      command.target === null || command.target === '*' ? fleet.all() : [fleet.get(command.target)];
    for (const lock of locks) print(describe(lock));
    return;
  }
  const locks = command.target === '*' ? fleet.all() : [fleet.get(command.target)];
  for (const lock of locks) {
    switch (command.action) {
      case 'code':
        lock.enterCode(command.secret);
        break;
      case 'card':
        lock.tapCard(command.secret);
        break;
      case 'finger':
        lock.presentFingerprint(command.secret);
        break;
      case 'qr':
        lock.scanQr(command.secret);
        break;
      case 'key':
        lock.presentKey(command.secret);
        break;
      case 'turn':
        lock.turnManually();
        break;
      case 'ajar':
        lock.doorAjar();
        break;
      case 'closed':
        lock.doorClosed();
        break;
      case 'tamper':
        lock.tamper();
        break;
      case 'carry': {
        const carried = lock.carryCredentials(command.token);
        print(
          carried.applied
            ? `${lock.deviceId} took ${carried.entries} credential(s) of ${carried.userId} from a phone`
            : `${lock.deviceId} refused the carried update: ${carried.reason}`,
        );
        break;
      }
      case 'drain':
        lock.drainBattery(command.percent);
        print(`${lock.deviceId} battery ${lock.battery}%`);
        break;
      case 'offline':
        await lock.goOffline(command.mode);
        print(`${lock.deviceId} offline (${command.mode})`);
        break;
      case 'online':
        // Not awaited: while the broker is unreachable the lock keeps retrying in the background.
        lock
          .comeBack()
          .catch((error: Error) => print(`${lock.deviceId} could not connect: ${error.message}`));
        break;
    }
  }
}

async function main(): Promise<void> {
  let config: CliConfig | null;
  try {
    config = loadConfig(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  if (!config) {
    process.stdout.write(USAGE);
    return;
  }
  const fleet = new LockFleet({
    url: config.url,
    locks: config.locks,
    model: config.model,
    heartbeatSeconds: config.heartbeatSeconds,
    autoRelockSeconds: config.autoRelockSeconds,
    stateDir: config.stateDir,
  });
  report(fleet, config.quiet);

  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    print('stopping: each lock says online:false and disconnects');
    await fleet.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());

  print(`connecting ${fleet.size} lock(s) to ${config.url}`);
  // Logins run in the background: stdin works at once, and a lock the broker refuses is reported.
  void fleet.start().then(({ connected, failed }) => {
    print(`${connected.length} connected, ${failed.length} refused`);
    for (const { deviceId, error } of failed) print(`${deviceId} refused: ${error.message}`);
  });

  const input = createInterface({ input: process.stdin });
  input.on('line', async (line) => {
    const parsed = parseCommandLine(line);
    if (parsed === null) return;
    if ('error' in parsed) return print(parsed.error);
    const { command } = parsed;
    if (command.action === 'help') return process.stdout.write(USAGE);
    if (command.action === 'quit') return shutdown();
    try {
      await run(fleet, command);
    } catch (error) {
      print((error as Error).message);
    }
  });
  // Locks are long-lived: a closed stdin (started in the background) leaves them running.
  input.on('close', () => {
    if (!stopping) print('stdin closed; locks keep running until SIGINT/SIGTERM');
  });
}

// `--reader <id>:<secret>` runs a desk enrollment reader instead of locks (reader-cli.ts).
if (wantsReader(process.argv.slice(2))) await runReaderCli(process.argv.slice(2));
else await main();
