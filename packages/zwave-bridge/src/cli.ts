#!/usr/bin/env node
// latchkey-zwave: puts the Z-Wave locks of one controller behind Latchkey's device protocol v1.
// `npm run zwave-bridge -- --help` from the repository's root.
import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { ZWaveBridge } from './bridge';
import { HttpRegistrar } from './registrar';

const HELP = `latchkey-zwave: a bridge that puts Z-Wave locks behind Latchkey's device protocol v1

Usage: npm run zwave-bridge -- --controller <path|tcp://host:port> --server <url> --api-key <key> [options]

  --controller <port>   the Z-Wave controller: a serial path (/dev/ttyACM0, /dev/serial/by-id/…) or
                        tcp://host:port (a controller shared over TCP, e.g. by Z-Wave JS UI's server)
  --server <url>        the Latchkey portal, e.g. https://locks.example.com
  --api-key <key>       a portal API key with the devices scope (devices:write), used once per new
                        lock node to register it (env LATCHKEY_API_KEY)
  --mqtt <url>          the broker locks connect to (default: the portal's host on port 1883; the
                        portal's About screen names it)
  --data-dir <dir>      where device secrets, slot assignments and unsent events are kept
                        (default ./zwave-bridge-data; keep it private and backed up)
  --time-zone <zone>    time zone of new locks (default: this machine's)
  --network-key-dir <d> a folder with S0/S2 network keys as JSON (s2-keys.json), needed for secure locks
  --help                this text

Every lock node (User Code, User Credential or Door Lock CC) is registered once as a device of the
"zwave-lock" model and keeps its own MQTT connection (client id = device id). See docs/bridges/zwave.md.`;

async function main() {
  const { values } = parseArgs({
    options: {
      controller: { type: 'string' },
      server: { type: 'string' },
      'api-key': { type: 'string' },
      mqtt: { type: 'string' },
      'data-dir': { type: 'string' },
      'time-zone': { type: 'string' },
      'network-key-dir': { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(HELP);
    return;
  }
  const apiKey = values['api-key'] ?? process.env.LATCHKEY_API_KEY;
  const missing = [
    !values.controller && '--controller',
    !values.server && '--server',
    !apiKey && '--api-key',
  ].filter(Boolean);
  if (missing.length > 0) {
    console.error(`latchkey-zwave: missing ${missing.join(', ')}\n\n${HELP}`);
    process.exitCode = 2;
    return;
  }
  const server = new URL(values.server!);
  const mqttUrl = values.mqtt ?? `mqtt://${server.hostname}:1883`;
  const dataDir = values['data-dir'] ?? 'zwave-bridge-data';
  const timeZone = values['time-zone'] ?? Intl.DateTimeFormat().resolvedOptions().timeZone;

  const { Driver } = await import('zwave-js');
  const securityKeys = await readKeys(values['network-key-dir']);
  const driver = new Driver(values.controller!, {
    logConfig: { enabled: true, level: 'warn' },
    storage: { cacheDir: join(dataDir, 'zwave-cache') },
    ...(securityKeys && { securityKeys }),
  });
  driver.on('error', (error) => console.error(`latchkey-zwave: Z-Wave driver: ${error.message}`));
  const bridge = new ZWaveBridge({
    driver,
    dataDir,
    mqttUrl,
    registrar: new HttpRegistrar(server.toString(), apiKey!, timeZone),
  });
  bridge.on('log', (message) => console.log(`latchkey-zwave: ${message}`));
  driver.once('driver ready', () => {
    console.log(
      `latchkey-zwave: controller ready, ${driver.controller.nodes.size - 1} node(s); broker ${mqttUrl}`,
    );
    bridge.start();
  });
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await bridge.stop();
    await driver.destroy();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  await driver.start();
}

async function readKeys(dir: string | undefined) {
  if (!dir) return undefined;
  const { readFile } = await import('node:fs/promises');
  const raw = JSON.parse(await readFile(join(dir, 's2-keys.json'), 'utf8')) as Record<string, string>;
  return Object.fromEntries(Object.entries(raw).map(([name, hex]) => [name, Buffer.from(hex, 'hex')]));
}

main().catch((error: unknown) => {
  console.error(`latchkey-zwave: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
