import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config';

describe('configuration', () => {
  it('has defaults for everything', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ PORT: 3000, HOST: '127.0.0.1', DEMO_DATA: true, SESSION_TTL_HOURS: 12 });
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it('names every bad value in one message', () => {
    const attempt = () => loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', JWT_SECRET: 'short' });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(/PORT="eighty"/);
    expect(attempt).toThrow(/DATABASE_URL="mysql:\/\/x": must be a postgres/);
    expect(attempt).toThrow(/JWT_SECRET="short": must be at least 32 characters/);
  });

  it('leaves MQTT_PORT unset unless chosen, so a taken default can fall back', () => {
    expect(loadConfig({})).toMatchObject({ MQTT_HEARTBEAT_S: 45, MQTT_COMMAND_TTL_S: 30 });
    expect(loadConfig({}).MQTT_PORT).toBeUndefined();
    expect(loadConfig({ MQTT_PORT: '0' }).MQTT_PORT).toBe(0);
    expect(() => loadConfig({ MQTT_URL: 'http://broker' })).toThrow(
      /MQTT_URL="http:\/\/broker": must be an mqtt/,
    );
  });

  it('reads lists and booleans', () => {
    expect(loadConfig({ FEATURES: 'shop, rentals,', DEMO_DATA: 'false' })).toMatchObject({
      FEATURES: ['shop', 'rentals'],
      DEMO_DATA: false,
    });
  });
});
