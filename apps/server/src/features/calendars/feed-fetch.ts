import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import zlib from 'node:zlib';

/**
 * Reads another platform's calendar feed with the guards a URL typed by a customer needs
 * (docs/decisions.md "Rentals: calendars, iCal, reviews"): http(s) only, no credentials, at most
 * a few redirects (each checked again), one deadline for the whole read, a size cap after
 * decompression, and, unless `allowPrivateHosts`, no address of the server's own networks
 * (loopback, private, link-local with the cloud metadata service, carrier-grade NAT, multicast,
 * reserved): the host's addresses are checked as they are resolved, in the connection's own DNS
 * lookup, so a name cannot resolve to a public address for the check and a private one for the
 * connection. Literal addresses are checked before connecting.
 */

export interface FeedFetchOptions {
  timeoutMs: number;
  maxBytes: number;
  allowPrivateHosts: boolean;
  /** The last good read's validators: a 304 answers "not modified". */
  etag?: string | null;
  lastModified?: string | null;
}

export type FeedResponse =
  { status: 304 } | { status: 200; body: string; etag: string | null; lastModified: string | null };

/** Why a feed could not be read, in words for the owner. */
export class FeedFetchError extends Error {}

const MAX_REDIRECTS = 3;

const blockedV4 = new net.BlockList();
for (const [address, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blockedV4.addSubnet(address, prefix, 'ipv4');
}
const blockedV6 = new net.BlockList();
for (const [address, prefix] of [
  // Unspecified, loopback and the deprecated IPv4-compatible addresses (::a.b.c.d).
  ['::', 96],
  // NAT64 (well-known and local-use prefixes): they reach IPv4 addresses through a translator.
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  // Teredo and 6to4 carry an IPv4 address inside and reach it through a relay.
  ['2001::', 32],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  blockedV6.addSubnet(address, prefix, 'ipv6');
}

/** Whether an address belongs to a network a feed read must not reach. */
export function isPrivateAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return blockedV4.check(address, 'ipv4');
  if (family !== 6) return true;
  const groups = ipv6Groups(address);
  if (!groups) return true;
  const v4 = () => `${groups[6]! >> 8}.${groups[6]! & 255}.${groups[7]! >> 8}.${groups[7]! & 255}`;
  const zeros = (from: number, to: number) => groups.slice(from, to).every((g) => g === 0);
  // An IPv4 address written as IPv6 is checked as IPv4, however it is spelled: IPv4-mapped
  // (::ffff:0:0/96: ::ffff:10.0.0.1, ::ffff:a00:1, 0:0:0:0:0:ffff:…) and IPv4-translated
  // (::ffff:0:0:0/96).
  if (zeros(0, 5) && groups[5] === 0xffff) return blockedV4.check(v4(), 'ipv4');
  if (zeros(0, 4) && groups[4] === 0xffff && groups[5] === 0) return blockedV4.check(v4(), 'ipv4');
  return blockedV6.check(address, 'ipv6');
}

/** The eight 16-bit groups of an IPv6 address (as net.isIP takes it; a dotted IPv4 tail is two). */
function ipv6Groups(address: string): number[] | null {
  let text = address.toLowerCase().replace(/%.*$/, '');
  const tail = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (tail) {
    const [a, b, c, d] = tail.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, tail.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(':') : [];
  const rest = halves.length === 2 ? (halves[1] ? halves[1].split(':') : []) : null;
  const groups =
    rest === null ? head : [...head, ...Array<string>(8 - head.length - rest.length).fill('0'), ...rest];
  if (groups.length !== 8) return null;
  const values = groups.map((g) => parseInt(g, 16));
  return values.every((v) => Number.isInteger(v) && v >= 0 && v <= 0xffff) ? values : null;
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void;

/** A DNS lookup that refuses names resolving to any address a feed read must not reach. */
function guardedLookup(allowPrivateHosts: boolean) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const list = addresses as dns.LookupAddress[];
      if (list.length === 0) return callback(new FeedFetchError(`${hostname} has no address`), []);
      if (!allowPrivateHosts && list.some((a) => isPrivateAddress(a.address))) {
        return callback(
          new FeedFetchError(`${hostname} points to a private network address, which feeds may not use`),
          [],
        );
      }
      if (options.all) return callback(null, list);
      return callback(null, list[0]!.address, list[0]!.family);
    });
  };
}

/** The address as a feed may use it: http(s), no credentials, no private literal address. */
export function checkFeedUrl(raw: string, allowPrivateHosts: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new FeedFetchError('The address is not a web address');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new FeedFetchError('The address must start with http:// or https://');
  }
  if (url.username || url.password)
    throw new FeedFetchError('The address may not carry a user name or password');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivateHosts && net.isIP(host) !== 0 && isPrivateAddress(host)) {
    throw new FeedFetchError(`${host} is a private network address, which feeds may not use`);
  }
  if (!allowPrivateHosts && /^localhost$|\.localhost$/i.test(host)) {
    throw new FeedFetchError(`${host} is this server, which feeds may not use`);
  }
  return url;
}

/** Reads a feed; FeedFetchError (in words for the owner) for anything that is not a usable answer. */
export async function fetchFeed(rawUrl: string, options: FeedFetchOptions): Promise<FeedResponse> {
  const deadline = Date.now() + options.timeoutMs;
  let url = checkFeedUrl(rawUrl, options.allowPrivateHosts);
  for (let hop = 0; ; hop++) {
    const answer = await fetchOnce(url, options, deadline);
    if (answer.kind === 'done') return answer.response;
    if (hop >= MAX_REDIRECTS)
      throw new FeedFetchError(`The platform redirected more than ${MAX_REDIRECTS} times`);
    let next: URL;
    try {
      next = new URL(answer.location, url);
    } catch {
      throw new FeedFetchError('The platform redirected to an address that is not one');
    }
    url = checkFeedUrl(next.toString(), options.allowPrivateHosts);
  }
}

type Once = { kind: 'done'; response: FeedResponse } | { kind: 'redirect'; location: string };

function fetchOnce(url: URL, options: FeedFetchOptions, deadline: number): Promise<Once> {
  return new Promise<Once>((resolve, reject) => {
    const left = deadline - Date.now();
    if (left <= 0)
      return reject(new FeedFetchError(`No answer within ${Math.round(options.timeoutMs / 1000)} s`));
    const headers: Record<string, string> = {
      'user-agent': 'Latchkey calendar sync (+https://latchkey.example/ical)',
      accept: 'text/calendar, text/plain;q=0.9, */*;q=0.5',
      'accept-encoding': 'gzip, deflate',
    };
    if (options.etag) headers['if-none-match'] = options.etag;
    if (options.lastModified) headers['if-modified-since'] = options.lastModified;
    const client = url.protocol === 'https:' ? https : http;
    let settled = false;
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      reject(error instanceof FeedFetchError ? error : new FeedFetchError(describeNetworkError(error)));
    };
    const request = client.request(
      url,
      {
        method: 'GET',
        headers,
        lookup: guardedLookup(options.allowPrivateHosts) as unknown as net.LookupFunction,
        // A feed is read once; no connection is kept for later.
        agent: false,
      },
      (response) => {
        const status = response.statusCode ?? 0;
        if ([301, 302, 303, 307, 308].includes(status)) {
          const location = response.headers.location;
          response.resume();
          if (!location)
            return fail(new FeedFetchError(`The platform answered ${status} without a new address`));
          settled = true;
          clearTimeout(timer);
          return resolve({ kind: 'redirect', location });
        }
        if (status === 304) {
          response.resume();
          settled = true;
          clearTimeout(timer);
          return resolve({ kind: 'done', response: { status: 304 } });
        }
        if (status !== 200) {
          response.resume();
          return fail(new FeedFetchError(`The platform answered HTTP ${status}${statusHint(status)}`));
        }
        const declared = Number(response.headers['content-length'] ?? NaN);
        if (Number.isFinite(declared) && declared > options.maxBytes) {
          response.resume();
          return fail(tooLarge(options.maxBytes));
        }
        const encoding = String(response.headers['content-encoding'] ?? '').toLowerCase();
        let stream: NodeJS.ReadableStream = response;
        if (encoding === 'gzip' || encoding === 'x-gzip') stream = response.pipe(zlib.createGunzip());
        else if (encoding === 'deflate') stream = response.pipe(zlib.createInflate());
        else if (encoding && encoding !== 'identity') {
          response.resume();
          return fail(new FeedFetchError(`The platform sent the feed encoded as ${encoding}`));
        }
        const chunks: Buffer[] = [];
        let size = 0;
        stream.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > options.maxBytes) return fail(tooLarge(options.maxBytes));
          chunks.push(chunk);
        });
        stream.on('error', (error) => fail(error));
        stream.on('end', () => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          const etag = response.headers.etag;
          const lastModified = response.headers['last-modified'];
          resolve({
            kind: 'done',
            response: {
              status: 200,
              body: Buffer.concat(chunks).toString('utf8'),
              etag: typeof etag === 'string' ? etag : null,
              lastModified: typeof lastModified === 'string' ? lastModified : null,
            },
          });
        });
      },
    );
    const timer = setTimeout(
      () => fail(new FeedFetchError(`No answer within ${Math.round(options.timeoutMs / 1000)} s`)),
      left,
    );
    request.on('error', fail);
    request.end();
  });
}

function tooLarge(maxBytes: number) {
  return new FeedFetchError(`The feed is larger than ${Math.round(maxBytes / 1000)} kB`);
}

function statusHint(status: number): string {
  if (status === 401 || status === 403) return ' (the platform refused: is the address still valid?)';
  if (status === 404 || status === 410) return ' (not found: the platform may have changed the address)';
  if (status >= 500) return ' (a problem on the platform; the next read tries again)';
  return '';
}

function describeNetworkError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'The platform’s address could not be found';
  if (code === 'ECONNREFUSED') return 'The platform refused the connection';
  if (code === 'ECONNRESET') return 'The platform closed the connection';
  if (code === 'CERT_HAS_EXPIRED' || code?.startsWith('ERR_TLS') || code?.includes('CERT'))
    return 'The platform’s certificate is not valid';
  return `The feed could not be read (${code ?? (error instanceof Error ? error.message : 'network error')})`;
}
