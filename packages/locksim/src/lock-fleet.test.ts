import { afterEach, beforeEach, expect, it } from 'vitest';
import { deviceTopic } from '@latchkey/shared';
import { LockFleet } from './lock-fleet';
import { credentialSet, entry, FakeServer, startBroker, type TestBroker } from './test-support';

const FLEET_SIZE = 200;
const specs = Array.from({ length: FLEET_SIZE }, (_, index) => ({
  deviceId: `fleet-${String(index).padStart(4, '0')}`,
  secret: `secret-${index}`,
}));

let broker: TestBroker;
let server: FakeServer;
let fleet: LockFleet;

beforeEach(async () => {
  broker = await startBroker(Object.fromEntries(specs.map((spec) => [spec.deviceId, spec.secret])));
  server = await FakeServer.connect(broker.url);
});

afterEach(async () => {
  await fleet.stop();
  await server.close();
  await broker.close();
});

it(`runs ${FLEET_SIZE} locks, each on its own login, and every one confirms its credential set`, async () => {
  fleet = new LockFleet({
    url: broker.url,
    locks: [...specs, { deviceId: 'intruder', secret: 'guess' }],
    heartbeatSeconds: 0,
    reconnectPeriodMs: 0,
    connectConcurrency: 25,
  });
  const started = await fleet.start();
  expect(started.connected).toHaveLength(FLEET_SIZE);
  expect(started.failed.map((failure) => failure.deviceId)).toEqual(['intruder']);

  const confirmed = new Set<string>();
  const allConfirmed = new Promise<void>((resolve) => {
    fleet.on('credentialsApplied', ({ deviceId, version }) => {
      if (version === 7) confirmed.add(deviceId);
      if (confirmed.size === FLEET_SIZE) resolve();
    });
  });
  for (const { deviceId } of specs) {
    const entries = [entry({ credentialId: `code-${deviceId}`, kind: 'code', secret: '2468' })];
    await server.publish(deviceTopic(deviceId, 'credentials'), credentialSet(deviceId, 7, entries), {
      retain: true,
    });
  }
  await allConfirmed;

  const lastLock = specs.at(-1)!.deviceId;
  await server.waitFor(
    deviceTopic(lastLock, 'credentials/ack'),
    (body) => (body as { version: number }).version === 7,
  );
  expect(fleet.get(lastLock).enterCode('2468').decision).toMatchObject({
    granted: true,
    credentialId: `code-${lastLock}`,
  });
  expect(() => fleet.get('nobody')).toThrow(/no lock nobody/);
});
