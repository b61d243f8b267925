import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, publicUrlMismatch, publicUrlOf } from '../src/config';

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

  it('links to the address the server listens at, and warns when PUBLIC_URL names this machine otherwise', () => {
    // The start-up line prints http://127.0.0.1:3000: mail and payment links go there too, not to
    // localhost, which a browser treats as another site (signed out, another cart).
    expect(publicUrlOf(loadConfig({}))).toBe('http://127.0.0.1:3000');
    expect(publicUrlOf(loadConfig({ HOST: '0.0.0.0', PORT: '8080' }))).toBe('http://localhost:8080');
    expect(publicUrlOf(loadConfig({ HOST: '::1' }))).toBe('http://[::1]:3000');
    expect(publicUrlOf(loadConfig({ PUBLIC_URL: 'https://portal.example.com/' }))).toBe(
      'https://portal.example.com',
    );

    expect(publicUrlMismatch(loadConfig({}))).toBeNull();
    expect(publicUrlMismatch(loadConfig({ PUBLIC_URL: 'http://127.0.0.1:3000/' }))).toBeNull();
    // Behind a proxy, PUBLIC_URL is the proxy's: nothing to warn about.
    expect(publicUrlMismatch(loadConfig({ PUBLIC_URL: 'https://portal.example.com' }))).toBeNull();
    expect(publicUrlMismatch(loadConfig({ PUBLIC_URL: 'http://localhost:3000' }))).toMatch(
      /^PUBLIC_URL http:\/\/localhost:3000 is not the address this server listens at \(http:\/\/127\.0\.0\.1:3000\)/,
    );
    // PORT=0: compared with the port the server took.
    expect(
      publicUrlMismatch(loadConfig({ PORT: '0', PUBLIC_URL: 'http://127.0.0.1:4100' }), 4100),
    ).toBeNull();
    expect(publicUrlMismatch(loadConfig({ PORT: '0', PUBLIC_URL: 'http://127.0.0.1:4100' }), 4101)).toMatch(
      /set PUBLIC_URL=http:\/\/127\.0\.0\.1:4101$/,
    );
  });
});
