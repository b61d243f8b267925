import { canConnect, freePorts } from '../src/cluster/cluster';

export { canConnect };

/** A port free now on 127.0.0.1 (the scale-out set's own helper). */
export async function freePort(): Promise<number> {
  const [port] = await freePorts(1);
  return port!;
}

/**
 * Polls `probe` every 25 ms until it answers something other than undefined or false, for at most
 * `ms` (generous: a busy CI machine is slow, and a passing test never waits it out).
 */
export async function waitFor<T>(
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  what: string,
  ms = 15_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
