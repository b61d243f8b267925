import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { isPrivateAddress } from '../calendars/feed-fetch';

/**
 * POSTs one webhook with the guards a URL typed by a customer needs, as the iCal feed read does
 * (features/calendars/feed-fetch.ts, whose address check this reuses): http(s) only, no
 * credentials in the URL, and, unless allowed by configuration, no address of the server's own
 * networks — checked for a literal address before connecting and for every address a name
 * resolves to, in the connection's own DNS lookup (a name cannot pass the check and then connect
 * somewhere private). No redirect is followed (a 3xx is a failed attempt), one deadline for the
 * whole exchange, and at most `maxBytes` of the answer are read (the rest is not waited for).
 */

export interface WebhookPostOptions {
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  maxBytes: number;
  allowPrivateAddresses: boolean;
}

export interface WebhookPostResult {
  statusCode: number;
  /** The answer's first bytes (up to maxBytes), as text. */
  response: string;
  /** The answer was longer than maxBytes and was cut. */
  truncated: boolean;
}

/** Why an attempt got no usable answer, in words for the endpoint's admin. */
export class WebhookFetchError extends Error {}

/** The endpoint's address as a delivery may use it; WebhookFetchError otherwise. */
export function checkWebhookUrl(raw: string, allowPrivateAddresses: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebhookFetchError('The address is not a web address');
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && allowPrivateAddresses)) {
    throw new WebhookFetchError('The address must start with https://');
  }
  if (url.username || url.password)
    throw new WebhookFetchError('The address may not carry a user name or password');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivateAddresses && net.isIP(host) !== 0 && isPrivateAddress(host)) {
    throw new WebhookFetchError(`${host} is a private network address, which webhooks may not use`);
  }
  if (!allowPrivateAddresses && /^localhost$|\.localhost$/i.test(host)) {
    throw new WebhookFetchError(`${host} is this server, which webhooks may not use`);
  }
  return url;
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void;

function guardedLookup(allowPrivateAddresses: boolean) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const list = addresses as dns.LookupAddress[];
      if (list.length === 0) return callback(new WebhookFetchError(`${hostname} has no address`), []);
      if (!allowPrivateAddresses && list.some((a) => isPrivateAddress(a.address))) {
        return callback(
          new WebhookFetchError(
            `${hostname} points to a private network address, which webhooks may not use`,
          ),
          [],
        );
      }
      if (options.all) return callback(null, list);
      return callback(null, list[0]!.address, list[0]!.family);
    });
  };
}

/** POSTs the webhook; resolves with any HTTP answer, rejects with WebhookFetchError without one. */
export function postWebhook(rawUrl: string, options: WebhookPostOptions): Promise<WebhookPostResult> {
  return new Promise<WebhookPostResult>((resolve, reject) => {
    let url: URL;
    try {
      url = checkWebhookUrl(rawUrl, options.allowPrivateAddresses);
    } catch (error) {
      return reject(error);
    }
    const client = url.protocol === 'https:' ? https : http;
    let settled = false;
    const finish = (outcome: { ok: WebhookPostResult } | { error: unknown }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      if ('ok' in outcome) resolve(outcome.ok);
      else
        reject(
          outcome.error instanceof WebhookFetchError
            ? outcome.error
            : new WebhookFetchError(describeNetworkError(outcome.error)),
        );
    };
    const body = Buffer.from(options.body, 'utf8');
    const request = client.request(
      url,
      {
        method: 'POST',
        headers: {
          ...options.headers,
          'content-type': 'application/json',
          'content-length': String(body.length),
          'user-agent': 'Latchkey-Webhooks/1.0',
        },
        lookup: guardedLookup(options.allowPrivateAddresses) as unknown as net.LookupFunction,
        agent: false,
      },
      (response) => {
        const statusCode = response.statusCode ?? 0;
        const chunks: Buffer[] = [];
        let size = 0;
        const done = (truncated: boolean) =>
          finish({
            ok: { statusCode, response: Buffer.concat(chunks).toString('utf8'), truncated },
          });
        response.on('data', (chunk: Buffer) => {
          const room = options.maxBytes - size;
          if (chunk.length > room) {
            chunks.push(chunk.subarray(0, room));
            return done(true);
          }
          chunks.push(chunk);
          size += chunk.length;
        });
        response.on('end', () => done(false));
        response.on('error', (error) => finish({ error }));
      },
    );
    const timer = setTimeout(
      () =>
        finish({
          error: new WebhookFetchError(`No answer within ${Math.round(options.timeoutMs / 1000)} s`),
        }),
      options.timeoutMs,
    );
    request.on('error', (error) => finish({ error }));
    request.end(body);
  });
}

function describeNetworkError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'The address could not be found';
  if (code === 'ECONNREFUSED') return 'The connection was refused';
  if (code === 'ECONNRESET') return 'The receiver closed the connection';
  if (code === 'CERT_HAS_EXPIRED' || code?.startsWith('ERR_TLS') || code?.includes('CERT'))
    return 'The receiver’s certificate is not valid';
  return `No answer (${code ?? (error instanceof Error ? error.message : 'network error')})`;
}
