import { describe, expect, it } from 'vitest';
import { parseReaderArgs, parseReaderCommand, wantsReader } from './reader-cli-commands';

describe('the reader command line', () => {
  it('is chosen by --reader', () => {
    expect(wantsReader(['--reader', 'r1:s'])).toBe(true);
    expect(wantsReader(['--reader=r1:s'])).toBe(true);
    expect(wantsReader(['--lock', 'd1:s'])).toBe(false);
  });

  it('reads the id, the secret (which may hold a colon), the kind and the heartbeat', () => {
    expect(parseReaderArgs(['--reader', 'r1:se:cret', '--kind', 'rfid', '--url', 'mqtt://h:1'])).toEqual({
      help: false,
      config: { url: 'mqtt://h:1', readerId: 'r1', secret: 'se:cret', kind: 'rfid', heartbeatSeconds: 30 },
    });
    expect(parseReaderArgs(['-h'])).toEqual({ help: true });
  });

  it('refuses a reader without a secret, an unknown kind and a bad heartbeat', () => {
    expect(() => parseReaderArgs(['--reader', 'r1'])).toThrow(/<readerId>:<secret>/);
    expect(() => parseReaderArgs(['--reader', 'r1:s', '--kind', 'face'])).toThrow(/--kind/);
    expect(() => parseReaderArgs(['--reader', 'r1:s', '--heartbeat', '-1'])).toThrow(/--heartbeat/);
  });

  it('turns stdin lines into commands', () => {
    expect(parseReaderCommand('tap 04 A2 3B 1C')).toEqual({ command: { action: 'tap', uid: '04A23B1C' } });
    expect(parseReaderCommand('finger 17')).toEqual({ command: { action: 'finger', templateId: '17' } });
    expect(parseReaderCommand('status')).toEqual({ command: { action: 'status' } });
    expect(parseReaderCommand('   ')).toBeNull();
    expect(parseReaderCommand('tap')).toEqual({ error: 'usage: tap <uid>' });
    expect(parseReaderCommand('open')).toEqual({ error: 'unknown command "open" (help lists them)' });
  });
});
