import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HttpRegistrar, ZWaveBridge } from 'latchkey-zwave';
import { startSimulatedNetwork, type SimulatedNetwork } from 'latchkey-zwave/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApp } from './test-app';
import { waitFor } from './net-helpers';

/**
 * More locks behind one bridge than the broker takes from one address (MQTT_MAX_CONNECTIONS_PER_IP):
 * the decision is a documented limit per bridge address (docs/bridges/zwave.md, docs/decisions.md).
 * The locks within it work; the one over it is told apart in the bridge's log, naming the setting,
 * and comes online by itself as soon as a connection is free.
 */

describe('a bridge with more locks than MQTT_MAX_CONNECTIONS_PER_IP', () => {
  let t: TestApp;
  let network: SimulatedNetwork;
  let bridge: ZWaveBridge;
  let dataDir: string;
  let token: string;
  const logs: string[] = [];
  const deviceOfNode = new Map<number, string>();

  /** A portal API key with the devices scope, as an admin makes one in Settings → API keys. */
  async function apiKey(adminToken: string): Promise<string> {
    const response = await t.request({
      method: 'POST',
      url: '/api3/portal/apikeys',
      token: adminToken,
      payload: { name: 'Z-Wave bridge', scopes: ['devices:write'] },
    });
    expect(response.statusCode, response.body).toBe(201);
    const secret = response.json().secret as string;
    expect(secret).toMatch(/^lk_live_/);
    return secret;
  }

  beforeAll(async () => {
    t = await TestApp.start({ MQTT_MAX_CONNECTIONS_PER_IP: '3' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    const serverUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    token = (await t.signUp()).token;
    network = await startSimulatedNetwork([2, 3, 4, 5].map((nodeId) => ({ nodeId, userCodes: 5 })));
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'latchkey-zwave-'));
    bridge = new ZWaveBridge({
      driver: network.driver,
      dataDir,
      mqttUrl: t.app.deviceLink.transport.url,
      registrar: new HttpRegistrar(serverUrl, await apiKey(token), 'UTC'),
      link: { reconnectPeriodMs: 300 },
    });
    bridge.on('log', (message) => logs.push(message));
    bridge.on('lock', (link, nodeId) => deviceOfNode.set(nodeId, link.deviceId));
    bridge.start();
    await waitFor(() => deviceOfNode.size === 4, 'four lock nodes registered', 150_000);
  }, 180_000);

  afterAll(async () => {
    await bridge?.stop();
    await network?.destroy();
    await t?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const online = async () => {
    const response = await t.request({ method: 'GET', url: '/api3/portal/devices', token });
    return (response.json().items as { _id: string; online: boolean }[])
      .filter((d) => d.online)
      .map((d) => d._id);
  };

  it('serves the locks within the limit, says why the one over it is refused, and lets it in once a connection is free', async () => {
    await waitFor(async () => (await online()).length === 3, 'three locks online');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await online()).toHaveLength(3);
    expect(logs.some((line) => line.includes('MQTT_MAX_CONNECTIONS_PER_IP'))).toBe(true);
    const onlineIds = await online();
    const refusedNode = [...deviceOfNode].find(([, id]) => !onlineIds.includes(id))![0];
    // One lock leaves (its node removed from the bridge): the refused one gets its connection.
    const leaving = [...deviceOfNode].find(([nodeId]) => nodeId !== refusedNode)![0];
    await bridge.link(leaving)!.stop();
    await waitFor(
      async () => (await online()).includes(deviceOfNode.get(refusedNode)!),
      'the refused lock online',
    );
  });
});
