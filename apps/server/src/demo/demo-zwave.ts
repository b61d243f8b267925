import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { ZWaveBridge, zwaveSerial, type DeviceRegistrar } from 'latchkey-zwave';
import type { Database } from '../db/database';
import { createDevice } from '../features/devices/devices.service';
import { DEMO_ACCOUNTS } from './seed-demo';

// DEMO_ZWAVE: a simulated Z-Wave network of three locks, one masking its codes and one taking cards
// (zwave-js's own driver on a mock serial port, in process: no radio, no network) behind the
// latchkey-zwave bridge, so a newcomer sees Z-Wave locks in the demo portal without hardware
// (docs/bridges/zwave.md). The bridge speaks device protocol v1 to the embedded broker exactly as it
// does for real locks; only the registration of its nodes goes straight to the devices service
// instead of through an API key.

export interface DemoZWave {
  stop(): Promise<void>;
}

/** Starts the simulated network and the bridge; null when there is no demo portal to put them in. */
export async function startDemoZWave(
  db: Database,
  mqttUrl: string,
  dataDir: string,
  log: FastifyBaseLogger,
): Promise<DemoZWave | null> {
  const admin = await db
    .selectFrom('users')
    .innerJoin('portals', 'portals.owner_user_id', 'users.id')
    .select(['users.id as userId', 'portals.id as portalId'])
    .where('users.email', '=', DEMO_ACCOUNTS.admin.email)
    .executeTakeFirst();
  if (!admin) {
    log.warn('DEMO_ZWAVE: no demo portal in this database (DEMO_DATA seeds it); the Z-Wave demo stays off');
    return null;
  }
  const names: Record<number, string> = {
    2: 'Z-Wave: Storage room',
    3: 'Z-Wave: Back door',
    4: 'Z-Wave: Bike store (cards)',
  };
  const registrar: DeviceRegistrar = {
    async register(node) {
      const created = await createDevice(
        db,
        { portalId: admin.portalId, actorUserId: admin.userId, ip: '127.0.0.1' },
        {
          name: names[node.nodeId] ?? `Z-Wave lock ${node.nodeId}`,
          model: 'zwave-lock',
          timeZone: 'Europe/Berlin',
          serial: zwaveSerial(node),
        },
        undefined,
        'exempt',
      );
      return { deviceId: created.device._id, secret: created.deviceSecret };
    },
  };
  // Under heavy load the mock controller's 1 s wait for the driver's ACK can lapse, and zwave-js's
  // mock leaves that rejection unhandled, which would end the server. For the simulated network it
  // only costs a frame the driver sends again: logged. Any other unhandled rejection still ends it.
  const onRejection = (reason: unknown) => {
    if (reason instanceof Error && /MockController/.test(reason.stack ?? '')) {
      log.warn({ err: reason }, 'DEMO_ZWAVE: the simulated Z-Wave controller missed an acknowledgement');
      return;
    }
    throw reason;
  };
  process.on('unhandledRejection', onRejection);
  // Loaded only when asked for: zwave-js is large.
  const { startSimulatedNetwork } = await import('latchkey-zwave/simulator');
  const network = await startSimulatedNetwork([
    { nodeId: 2, userCodes: 30, battery: 86, firmware: '2.1' },
    { nodeId: 3, userCodes: 20, battery: 64, firmware: '1.7', masksCodes: true },
    // With the User Credential CC: codes and cards (docs/bridges/zwave.md, "Cards").
    { nodeId: 4, userCodes: 10, battery: 92, firmware: '3.0', userCredential: { rfidSlots: 10 } },
  ]);
  const bridge = new ZWaveBridge({
    driver: network.driver,
    dataDir: path.join(dataDir, 'demo-zwave'),
    mqttUrl,
    registrar,
  });
  // The simulated locks start empty on every run: the bridge forgets what it wrote to them.
  bridge.store.forgetSlots();
  bridge.on('log', (message) => log.debug({ bridge: 'zwave' }, message));
  bridge.on('lock', (_link, nodeId) =>
    log.info(`DEMO_ZWAVE: simulated Z-Wave lock node ${nodeId} is connected through the bridge`),
  );
  bridge.start();
  return {
    async stop() {
      await bridge.stop();
      await network.destroy();
      process.off('unhandledRejection', onRejection);
    },
  };
}
