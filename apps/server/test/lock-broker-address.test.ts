import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, lockBrokerUrlOf } from '../src/config';
import { TestApp } from './test-app';

// The dialog after "Add lock" tells the installer which broker the lock connects to: GET
// portal/about answers it, from the configuration and the port the embedded broker took.

describe('the broker address locks are set up with', () => {
  it('is the embedded broker on the host people reach the portal at, or what MQTT_PUBLIC_URL says', () => {
    expect(lockBrokerUrlOf(loadConfig({}), 'mqtt://127.0.0.1:1883')).toBe('mqtt://127.0.0.1:1883');
    // The port the broker took (1883 was taken), on the public host, not the listen address.
    expect(
      lockBrokerUrlOf(loadConfig({ PUBLIC_URL: 'https://locks.example.com' }), 'mqtt://0.0.0.0:41883'),
    ).toBe('mqtt://locks.example.com:41883');
    expect(
      lockBrokerUrlOf(
        loadConfig({
          MQTT_PUBLIC_URL: 'mqtts://mqtt.example.com:8883/',
          PUBLIC_URL: 'https://x.example.com',
        }),
        'mqtt://127.0.0.1:1883',
      ),
    ).toBe('mqtts://mqtt.example.com:8883');
    // An external broker's MQTT_URL is the servers' own listener: not where a lock logs in.
    expect(
      lockBrokerUrlOf(
        loadConfig({ MQTT_URL: 'mqtt://server:secret@mosquitto:1884' }),
        'mqtt://mosquitto:1884',
      ),
    ).toBeNull();
    expect(() => loadConfig({ MQTT_PUBLIC_URL: 'http://broker' })).toThrow(
      /MQTT_PUBLIC_URL="http:\/\/broker": must be an mqtt/,
    );
  });

  describe('GET portal/about', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await TestApp.start({ PUBLIC_URL: 'https://portal.example.com' });
    });
    afterAll(() => t.close());

    it("names the broker with the embedded broker's own port", async () => {
      const { token } = await t.signUp();
      const response = await t.request({ method: 'GET', url: '/api3/portal/about', token });
      expect(response.statusCode).toBe(200);
      const port = new URL(t.app.deviceLink.transport.url).port;
      expect(response.json().lockBrokerUrl).toBe(`mqtt://portal.example.com:${port}`);
    });

    it('is for signed-in people only', async () => {
      const response = await t.request({ method: 'GET', url: '/api3/portal/about' });
      expect(response.statusCode).toBe(401);
    });
  });
});
