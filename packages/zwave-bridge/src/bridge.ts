import { EventEmitter } from 'node:events';
import type { Driver, ZWaveNode } from 'zwave-js';
import { LockLink, type LockLinkOptions } from './lock-link';
import type { DeviceRegistrar } from './registrar';
import { BridgeStore } from './store';
import { ZWaveLock } from './zwave-lock';

export interface ZWaveBridgeOptions {
  /** A started zwave-js driver ("driver ready" emitted, or about to be). */
  driver: Driver;
  dataDir: string;
  mqttUrl: string;
  registrar: DeviceRegistrar;
  /** Options passed to every lock's link (clock, tick, retries). */
  link?: Omit<LockLinkOptions, 'mqttUrl' | 'deviceId' | 'secret' | 'lock' | 'store'>;
}

export interface ZWaveBridgeEvents {
  /** A lock node is now a device, speaking protocol v1. */
  lock: [link: LockLink, nodeId: number];
  log: [message: string];
}

/**
 * The bridge: every lock node of the Z-Wave network (one with the User Code, User Credential or Door
 * Lock CC) is registered once as a device of the portal (id and secret kept in the data folder) and
 * gets its own LockLink. Nodes included later are picked up when their interview completes.
 */
export class ZWaveBridge extends EventEmitter<ZWaveBridgeEvents> {
  readonly store: BridgeStore;
  readonly links = new Map<number, LockLink>();
  private readonly attaching = new Set<number>();
  private stopped = false;

  constructor(private readonly options: ZWaveBridgeOptions) {
    super();
    this.store = new BridgeStore(options.dataDir);
  }

  /** Starts with the nodes the driver knows; call after "driver ready". */
  start(): void {
    const { controller } = this.options.driver;
    for (const node of controller.nodes.values()) this.watch(node);
    controller.on('node added', (node) => this.watch(node));
  }

  /** The link of a node (once registered). */
  link(nodeId: number): LockLink | undefined {
    return this.links.get(nodeId);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all([...this.links.values()].map((link) => link.stop()));
    this.links.clear();
  }

  private log(message: string) {
    this.emit('log', message);
  }

  private watch(node: ZWaveNode) {
    if (node.isControllerNode) return;
    if (node.ready) void this.attach(node);
    else node.once('ready', () => void this.attach(node));
  }

  private async attach(node: ZWaveNode): Promise<void> {
    if (this.stopped || this.links.has(node.id) || this.attaching.has(node.id)) return;
    if (!ZWaveLock.isLock(node)) {
      this.log(`node ${node.id} is not a lock (no User Code, User Credential or Door Lock CC): left alone`);
      return;
    }
    this.attaching.add(node.id);
    try {
      const homeId = this.options.driver.controller.homeId ?? 0;
      const key = `${homeId.toString(16)}:${node.id}`;
      let device = this.store.device(key);
      if (!device) {
        for (let attempt = 1; !device; attempt++) {
          try {
            device = await this.options.registrar.register({
              homeId,
              nodeId: node.id,
              firmware: node.firmwareVersion ?? 'unknown',
            });
          } catch (error) {
            this.log(`registering node ${node.id} failed (attempt ${attempt}): ${String(error)}`);
            if (attempt >= 5 || this.stopped) throw error;
            await new Promise((resolve) => setTimeout(resolve, 2000 * attempt));
          }
        }
        this.store.setDevice(key, device);
        this.log(`node ${node.id} registered as device ${device.deviceId}`);
      }
      const lock = new ZWaveLock(this.options.driver, node);
      const caps = lock.capabilities();
      this.log(
        `node ${node.id}: ${caps.userCodes} user codes (${caps.minLength}-${caps.maxLength} characters), ` +
          `${caps.rfidSlots} RFID slots, schedule entry lock ${caps.scheduleEntryLock ? 'yes' : 'no'}, ` +
          `kinds ${caps.kinds.join(', ')}`,
      );
      const link = new LockLink({
        ...this.options.link,
        mqttUrl: this.options.mqttUrl,
        deviceId: device.deviceId,
        secret: device.secret,
        lock,
        store: this.store,
      });
      link.on('log', (message) => this.log(message));
      link.on('refused', (reason) =>
        this.log(
          `device ${device.deviceId}: ${reason} (wrong secret, a deleted lock, or more locks behind ` +
            'this address than the broker allows: MQTT_MAX_CONNECTIONS_PER_IP)',
        ),
      );
      this.links.set(node.id, link);
      link.start();
      this.emit('lock', link, node.id);
    } catch (error) {
      this.log(`node ${node.id} is not bridged: ${String(error)}`);
    } finally {
      this.attaching.delete(node.id);
    }
  }
}
