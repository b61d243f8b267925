import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, logLevelOf } from '../src/config';
import { DEMO_ACCOUNTS } from '../src/demo/seed-demo';
import { demoSignIns, startupSummary } from '../src/startup-summary';
import { TestApp } from './test-app';

// A person starting the server at a terminal sees a few lines ending in the address and the demo
// sign-ins (main.ts), not ~270 lines with the sign-ins at line 122.

describe('the start-up at a terminal', () => {
  it('logs warnings only unless LOG_LEVEL says otherwise; JSON keeps info for collectors', () => {
    const config = loadConfig({});
    expect(logLevelOf(config, {}, true)).toBe('warn');
    expect(logLevelOf(config, {}, false)).toBe('info');
    expect(logLevelOf(loadConfig({ LOG_FORMAT: 'pretty' }), {}, false)).toBe('warn');
    expect(logLevelOf(loadConfig({ LOG_LEVEL: 'info' }), { LOG_LEVEL: 'info' }, true)).toBe('info');
    expect(logLevelOf(loadConfig({ LOG_LEVEL: 'debug' }), { LOG_LEVEL: 'debug' }, false)).toBe('debug');
  });

  it('ends with a short block: the address, where locks connect and the sign-ins in columns', () => {
    const block = startupSummary({
      url: 'http://127.0.0.1:3000',
      listening: null,
      lockBrokerUrl: 'mqtt://127.0.0.1:1883',
      signIns: [
        { who: 'Portal admin', email: 'admin@demo.latchkey.dev', password: 'demo-admin-pass' },
        { who: 'Reseller', email: 'reseller@demo.latchkey.dev', password: 'demo-reseller-pass' },
      ],
    });
    expect(block.split('\n')).toEqual([
      '',
      '  Latchkey is running at http://127.0.0.1:3000',
      '  Locks connect to mqtt://127.0.0.1:1883',
      '',
      '  Demo sign-ins (email, password):',
      '    Portal admin  admin@demo.latchkey.dev     demo-admin-pass',
      '    Reseller      reseller@demo.latchkey.dev  demo-reseller-pass',
      '',
      '  Details in the log with LOG_LEVEL=info. Stop with Ctrl+C.',
      '',
      '',
    ]);
  });

  it('names where it listens when PUBLIC_URL is another address, and leaves out what it does not know', () => {
    const block = startupSummary({
      url: 'https://locks.example.com',
      listening: 'http://127.0.0.1:3000',
      lockBrokerUrl: null,
      signIns: [],
    });
    expect(block).toContain(
      'Latchkey is running at https://locks.example.com (listening at http://127.0.0.1:3000)',
    );
    expect(block).not.toContain('Locks connect');
    expect(block).not.toContain('Demo sign-ins');
  });

  describe('the demo sign-ins', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await TestApp.start();
    });
    afterAll(() => t.close());

    it('are listed only while the demo accounts exist', async () => {
      expect(await demoSignIns(t.app.db)).toEqual([]);
      await t.signUp({ email: DEMO_ACCOUNTS.admin.email });
      const signIns = await demoSignIns(t.app.db);
      expect(signIns.map((s) => s.who)).toEqual(['Portal admin', 'Basic user', 'Platform staff', 'Reseller']);
      expect(signIns[0]).toMatchObject(DEMO_ACCOUNTS.admin);
    });
  });
});
