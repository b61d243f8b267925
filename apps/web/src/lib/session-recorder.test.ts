import { describe, expect, it, vi } from 'vitest';
import {
  ANALYTICS_FAILURE,
  isLocalOrPrivateHost,
  loadScript,
  startSessionRecorder,
} from './session-recorder';

describe('isLocalOrPrivateHost', () => {
  it.each([
    'localhost',
    'LOCALHOST',
    'app.localhost',
    '127.0.0.1',
    '127.8.9.10',
    '::1',
    '[::1]',
    '0.0.0.0',
    '10.0.0.7',
    '172.16.0.1',
    '172.31.255.254',
    '192.168.1.20',
    '169.254.10.1',
    'latchkey.local',
    'printer.local.',
    '[fd12:3456::1]',
    'fe80::1',
    '::ffff:192.168.0.4',
    '',
  ])('%s is local or private: nothing is recorded', (host) => {
    expect(isLocalOrPrivateHost(host)).toBe(true);
  });

  it.each([
    'app.latchkey.dev',
    'example.com',
    '8.8.8.8',
    '172.15.0.1',
    '172.32.0.1',
    '192.169.0.1',
    '11.0.0.1',
    'local.example.com',
    '[2001:db8::1]',
    '::ffff:8.8.8.8',
  ])('%s is public: the recorder may start', (host) => {
    expect(isLocalOrPrivateHost(host)).toBe(false);
  });
});

describe('startSessionRecorder', () => {
  it('does nothing on a local host, not even asking for the URL', async () => {
    const scriptUrl = vi.fn(async () => 'https://cdn.example/r.js');
    const load = vi.fn(async () => {});
    await expect(startSessionRecorder({ hostname: '192.168.0.3', scriptUrl, load })).resolves.toBe('local');
    expect(scriptUrl).not.toHaveBeenCalled();
    expect(load).not.toHaveBeenCalled();
  });

  it('loads nothing when the deployment names no script (the default)', async () => {
    const load = vi.fn(async () => {});
    const outcome = await startSessionRecorder({
      hostname: 'app.example.com',
      scriptUrl: async () => null,
      load,
    });
    expect(outcome).toBe('off');
    expect(load).not.toHaveBeenCalled();
  });

  it('loads the configured script on a public host', async () => {
    const load = vi.fn(async () => {});
    const outcome = await startSessionRecorder({
      hostname: 'app.example.com',
      scriptUrl: async () => 'https://cdn.example/r.js',
      load,
    });
    expect(outcome).toBe('started');
    expect(load).toHaveBeenCalledWith('https://cdn.example/r.js');
  });

  it("logs 'Failed to load analytics' when the script fails, and nothing else", async () => {
    const log = vi.fn();
    const outcome = await startSessionRecorder({
      hostname: 'app.example.com',
      scriptUrl: async () => 'https://cdn.example/r.js',
      load: () => Promise.reject(new Error('blocked')),
      log,
    });
    expect(outcome).toBe('failed');
    expect(log).toHaveBeenCalledTimes(1);
    expect(log.mock.calls[0]![0]).toBe(ANALYTICS_FAILURE);
    expect(ANALYTICS_FAILURE).toBe('Failed to load analytics');
  });

  it('logs the same when the URL cannot be read, by default on console.error', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const outcome = await startSessionRecorder({
      hostname: 'app.example.com',
      scriptUrl: () => Promise.reject(new Error('offline')),
    });
    expect(outcome).toBe('failed');
    expect(error).toHaveBeenCalledWith('Failed to load analytics', expect.any(Error));
    error.mockRestore();
  });
});

describe('loadScript', () => {
  it('adds an async script and settles with its load or error event', async () => {
    const loading = loadScript('https://cdn.example/ok.js');
    const script = document.head.querySelector<HTMLScriptElement>('script[src="https://cdn.example/ok.js"]')!;
    expect(script.async).toBe(true);
    script.dispatchEvent(new Event('load'));
    await expect(loading).resolves.toBeUndefined();

    const failing = loadScript('https://cdn.example/missing.js');
    document.head
      .querySelector('script[src="https://cdn.example/missing.js"]')!
      .dispatchEvent(new Event('error'));
    await expect(failing).rejects.toThrow(/Could not load/);
  });
});
