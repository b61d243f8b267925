import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';

/** One request the Python receiver saw, as it printed it. */
export interface ReceivedRequest {
  id: string | null;
  timestamp: string | null;
  signature: string | null;
  verified: boolean;
  reason: string;
  status: number;
  processed: boolean;
  event: { type: string; timestamp: string; data: Record<string, unknown> } | null;
  body: string;
}

export const RECEIVER_SCRIPT = path.join(import.meta.dirname, 'receiver.py');

/** The independent receiver (receiver.py under Debian's python3), serving on 127.0.0.1. */
export class PythonReceiver {
  readonly requests: ReceivedRequest[] = [];
  private constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    readonly port: number,
    lines: readline.Interface,
  ) {
    lines.on('line', (line) => this.requests.push(JSON.parse(line) as ReceivedRequest));
  }

  static start(secret: string, failFirst = 0): Promise<PythonReceiver> {
    const child = spawn('/usr/bin/python3', [RECEIVER_SCRIPT, 'serve', secret, String(failFirst)]);
    const lines = readline.createInterface({ input: child.stdout });
    return new Promise((resolve, reject) => {
      child.once('error', reject);
      lines.once('line', (line) => {
        const { port } = JSON.parse(line) as { port: number };
        resolve(new PythonReceiver(child, port, lines));
      });
    });
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/hook`;
  }

  stop(): void {
    this.child.kill();
  }
}

/** Asks receiver.py to verify one request at a chosen moment (seconds since the epoch). */
export function verifyWithPython(
  secret: string,
  request: { headers: Record<string, string>; body: string; now: number },
): Promise<{ ok: boolean; reason: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('/usr/bin/python3', [RECEIVER_SCRIPT, 'verify', secret]);
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('error', reject);
    child.once('close', () => {
      try {
        resolve(JSON.parse(out) as { ok: boolean; reason: string });
      } catch (error) {
        reject(error as Error);
      }
    });
    child.stdin.end(JSON.stringify(request));
  });
}
