import { clientEchoSchema, type ClientEcho } from '@latchkey/shared';
import { api } from '@/lib/api-client';

/** What one echo took: the answer and the browser's clock around the round trip. */
export interface TimedClientEcho {
  echo: ClientEcho;
  /** The browser's clock (ms) when the request left and when the answer came. */
  sentAt: number;
  receivedAt: number;
}

/**
 * GET about/client (public): what the server saw of this request (the version header, the address)
 * and its clock, timed by the browser's. Never from the response cache: each check asks again.
 */
export async function getClientEcho(now: () => number = Date.now): Promise<TimedClientEcho> {
  const sentAt = now();
  const answer = await api.get<unknown>('about/client', { cacheKey: `echo-${sentAt}-${Math.random()}` });
  const receivedAt = now();
  return { echo: clientEchoSchema.parse(answer), sentAt, receivedAt };
}
