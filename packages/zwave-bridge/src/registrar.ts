import type { RegisteredDevice } from './store';

export interface LockNodeInfo {
  homeId: number;
  nodeId: number;
  firmware: string;
}

/** Registers a lock node as a device of the portal and answers its id and secret. */
export interface DeviceRegistrar {
  register(node: LockNodeInfo): Promise<RegisteredDevice>;
}

/** A registration the server refused; `status` is the HTTP status. */
export class RegistrationError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/**
 * Registers through the portal's REST API (`POST /api3/portal/device/new`) with an API key of the
 * devices scope (`Authorization: Bearer lk_live_…`): the device is of the `zwave-lock` model, its
 * serial names the Z-Wave network and node, and its secret comes back this once.
 */
export class HttpRegistrar implements DeviceRegistrar {
  constructor(
    private readonly serverUrl: string,
    private readonly apiKey: string,
    private readonly timeZone: string,
  ) {}

  async register(node: LockNodeInfo): Promise<RegisteredDevice> {
    const url = new URL('/api3/portal/device/new', this.serverUrl);
    const response = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: `Z-Wave lock ${node.nodeId}`,
        model: 'zwave-lock',
        timeZone: this.timeZone,
        serial: zwaveSerial(node),
      }),
    });
    if (response.status !== 201) {
      const text = await response.text().catch(() => '');
      throw new RegistrationError(
        `the server refused to register node ${node.nodeId} (HTTP ${response.status}): ${text.slice(0, 300)}`,
        response.status,
      );
    }
    const body = (await response.json()) as { device: { _id: string }; deviceSecret: string };
    return { deviceId: body.device._id, secret: body.deviceSecret };
  }
}

/** The device's serial: the Z-Wave home id and node id, e.g. `zwave-7e570001-5`. */
export function zwaveSerial(node: { homeId: number; nodeId: number }): string {
  return `zwave-${node.homeId.toString(16).padStart(8, '0')}-${node.nodeId}`;
}
