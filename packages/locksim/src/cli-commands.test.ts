import { describe, expect, it } from 'vitest';
import { parseCliArgs, parseCommandLine, parseLocksFile } from './cli-commands';
import { DEFAULT_LOCK_MODEL } from './lock-model';

describe('stdin commands', () => {
  it('parses presentations at a reader', () => {
    expect(parseCommandLine('code front 1234')).toEqual({
      command: { action: 'code', target: 'front', secret: '1234' },
    });
    expect(parseCommandLine('  card   front  04A1B2C3 ')).toEqual({
      command: { action: 'card', target: 'front', secret: '04A1B2C3' },
    });
    expect(parseCommandLine('finger front tmpl-1')).toMatchObject({ command: { action: 'finger' } });
    expect(parseCommandLine('carry front LKS1.a.b')).toEqual({
      command: { action: 'carry', target: 'front', token: 'LKS1.a.b' },
    });
    expect(parseCommandLine('carry front')).toEqual({ error: 'usage: carry <lock> <token>' });
    expect(parseCommandLine('qr * token')).toEqual({
      command: { action: 'qr', target: '*', secret: 'token' },
    });
  });

  it('keeps the leading zeros of a PIN', () => {
    expect(parseCommandLine('code front 0007')).toMatchObject({ command: { secret: '0007' } });
  });

  it('parses lock actions, offline modes, battery drain and status', () => {
    expect(parseCommandLine('tamper front')).toEqual({ command: { action: 'tamper', target: 'front' } });
    expect(parseCommandLine('offline front')).toEqual({
      command: { action: 'offline', target: 'front', mode: 'drop' },
    });
    expect(parseCommandLine('offline front clean')).toMatchObject({ command: { mode: 'clean' } });
    expect(parseCommandLine('online front')).toEqual({ command: { action: 'online', target: 'front' } });
    expect(parseCommandLine('drain front 10')).toEqual({
      command: { action: 'drain', target: 'front', percent: 10 },
    });
    expect(parseCommandLine('status')).toEqual({ command: { action: 'status', target: null } });
    expect(parseCommandLine('STATUS front')).toEqual({ command: { action: 'status', target: 'front' } });
    expect(parseCommandLine('exit')).toEqual({ command: { action: 'quit' } });
  });

  it('skips blank lines and comments', () => {
    expect(parseCommandLine('   ')).toBeNull();
    expect(parseCommandLine('# a scenario step')).toBeNull();
  });

  it('explains malformed lines instead of guessing', () => {
    expect(parseCommandLine('code front')).toEqual({ error: 'usage: code <lock> <pin>' });
    expect(parseCommandLine('code front 12 34')).toEqual({ error: 'usage: code <lock> <pin>' });
    expect(parseCommandLine('drain front lots')).toEqual({ error: 'usage: drain <lock> <percent 1-100>' });
    expect(parseCommandLine('drain front 0')).toMatchObject({ error: expect.stringContaining('usage') });
    expect(parseCommandLine('offline front gently')).toEqual({ error: 'usage: offline <lock> [drop|clean]' });
    expect(parseCommandLine('tamper')).toEqual({ error: 'usage: tamper <lock>' });
    expect(parseCommandLine('dance front')).toEqual({ error: 'unknown command "dance" (type help)' });
    expect(parseCommandLine('dance')).toEqual({ error: 'unknown command "dance" (type help)' });
    expect(parseCommandLine('toString x')).toEqual({ error: 'unknown command "toString" (type help)' });
  });
});

describe('command-line options', () => {
  it('reads locks, url and options', () => {
    const parsed = parseCliArgs([
      '--url',
      'mqtt://broker:1884',
      '--lock',
      'front:s3cret:with:colons',
      '--lock',
      'back:x',
      '--kinds',
      'code,rfid',
      '--heartbeat',
      '15',
      '--relock',
      '5',
    ]);
    expect(parsed).toEqual({
      help: false,
      config: {
        url: 'mqtt://broker:1884',
        locks: [
          { deviceId: 'front', secret: 's3cret:with:colons' },
          { deviceId: 'back', secret: 'x' },
        ],
        locksFile: null,
        model: { supportedKinds: ['code', 'rfid'], capacity: DEFAULT_LOCK_MODEL.capacity },
        heartbeatSeconds: 15,
        autoRelockSeconds: 5,
        stateDir: null,
        quiet: false,
      },
    });
  });

  it('defaults the URL and accepts a locks file alone', () => {
    const parsed = parseCliArgs(['--locks-file', 'locks.json']);
    expect(parsed).toMatchObject({
      help: false,
      config: { url: 'mqtt://127.0.0.1:1883', locksFile: 'locks.json' },
    });
  });

  it('answers --help and refuses what it cannot use', () => {
    expect(parseCliArgs(['--help'])).toEqual({ help: true });
    expect(() => parseCliArgs([])).toThrow(/at least one --lock/);
    expect(() => parseCliArgs(['--lock', 'no-secret'])).toThrow(/<deviceId>:<secret>/);
    expect(() => parseCliArgs(['--lock', 'a:b', '--kinds', 'code,telepathy'])).toThrow(/telepathy/);
    expect(() => parseCliArgs(['--lock', 'a:b', '--heartbeat', 'often'])).toThrow(/--heartbeat/);
    expect(() => parseCliArgs(['--lock', 'a:b', '--bogus'])).toThrow();
  });

  it('reads a locks file with per-lock models', () => {
    const specs = parseLocksFile(
      JSON.stringify([
        { deviceId: 'a', secret: 'x' },
        { deviceId: 'b', secret: 'y', kinds: ['code'], battery: 40 },
      ]),
      DEFAULT_LOCK_MODEL,
    );
    expect(specs).toEqual([
      { deviceId: 'a', secret: 'x' },
      { deviceId: 'b', secret: 'y', battery: 40, model: { supportedKinds: ['code'], capacity: 1000 } },
    ]);
    expect(() => parseLocksFile('[{"deviceId":"a"}]', DEFAULT_LOCK_MODEL)).toThrow();
  });
});
