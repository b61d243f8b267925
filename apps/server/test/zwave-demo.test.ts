import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoZWave, type DemoZWave } from '../src/demo/demo-zwave';
import { DEMO_ACCOUNTS } from '../src/demo/seed-demo';
import { TestApp } from './test-app';

// DEMO_ZWAVE=true: three simulated Z-Wave locks behind the bridge show in the demo portal, online, with
// their battery and the bridge in their firmware, without hardware.

describe('the Z-Wave demo (DEMO_ZWAVE)', () => {
  let t: TestApp;
  let demo: DemoZWave | null;
  let dataDir: string;
  let token: string;

  beforeAll(async () => {
    t = await TestApp.start();
    token = (await t.signUp({ email: DEMO_ACCOUNTS.admin.email })).token;
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'latchkey-zwave-demo-'));
    demo = await startDemoZWave(t.app.db, t.app.deviceLink.transport.url, dataDir, t.app.log);
  }, 180_000);

  afterAll(async () => {
    await demo?.stop();
    await t?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('shows three Z-Wave locks online in the demo portal, one of them taking cards', async () => {
    expect(demo).not.toBeNull();
    const deadline = Date.now() + 150_000;
    let locks: {
      name: string;
      model: string;
      online: boolean;
      battery: number | null;
      firmware: string | null;
      lockState: string;
      capabilities: { kinds: string[] } | null;
    }[] = [];
    while (Date.now() < deadline) {
      const response = await t.request({ method: 'GET', url: '/api3/portal/devices', token });
      locks = response.json().items.filter((d: { model: string }) => d.model === 'zwave-lock');
      if (locks.length === 3 && locks.every((l) => l.online && l.capabilities)) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(locks.map((l) => l.name).sort()).toEqual([
      'Z-Wave: Back door',
      'Z-Wave: Bike store (cards)',
      'Z-Wave: Storage room',
    ]);
    expect(locks.find((l) => l.name === 'Z-Wave: Bike store (cards)')?.capabilities?.kinds).toContain('rfid');
    expect(locks.every((l) => l.online && l.lockState === 'locked')).toBe(true);
    expect(locks.find((l) => l.name === 'Z-Wave: Storage room')).toMatchObject({ battery: 86 });
    expect(locks.every((l) => /\(Z-Wave node \d, bridge /.test(l.firmware ?? ''))).toBe(true);
  }, 180_000);
});
