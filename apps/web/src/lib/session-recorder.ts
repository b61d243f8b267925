/**
 * The session recorder (brief §7: "loaded from a CDN and started only outside local or
 * private-network hosts"; §8: "Session recorder failing to start logs 'Failed to load analytics'").
 * The deployment names the script (SESSION_RECORDER_URL, read with GET about/webConfig; none by
 * default); it is loaded after the app has mounted, so neither its wait nor its failure touches
 * the first screen.
 */

/** The one message a failed start logs (brief §8). */
export const ANALYTICS_FAILURE = 'Failed to load analytics';

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/**
 * Whether a page's host name is the developer's own machine or a private network: localhost (and
 * *.localhost), loopback 127/8 and ::1, the private ranges 10/8, 172.16/12 and 192.168/16,
 * link-local 169.254/16 and fe80::/10, unique-local fc00::/7, unspecified 0.0.0.0, mDNS *.local,
 * and no host at all (a file). Nothing is recorded there.
 */
export function isLocalOrPrivateHost(hostname: string): boolean {
  const host = hostname.trim().toLowerCase().replace(/\.$/, '');
  if (host === '' || host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local'))
    return true;
  const v4 = IPV4.exec(host);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    return (
      a === 127 ||
      a === 10 ||
      a === 0 ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 169 && b === 254)
    );
  }
  const v6 = host.replace(/^\[|\]$/g, '');
  if (v6.includes(':')) {
    if (v6 === '::1' || v6 === '::') return true;
    // An IPv4 address written as IPv6 (::ffff:10.0.0.1) follows the IPv4 rule.
    const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(v6);
    if (mapped) return isLocalOrPrivateHost(mapped[1]!);
    const first = parseInt(v6.split(':')[0] || '0', 16);
    return (first & 0xfe00) === 0xfc00 || (first & 0xffc0) === 0xfe80;
  }
  return false;
}

/** Adds the script to the page; settles when it has loaded or failed to. */
export function loadScript(url: string, doc: Document = document): Promise<void> {
  return new Promise((resolve, reject) => {
    const script = doc.createElement('script');
    script.src = url;
    script.async = true;
    script.crossOrigin = 'anonymous';
    script.referrerPolicy = 'no-referrer';
    script.addEventListener('load', () => resolve());
    script.addEventListener('error', () => reject(new Error(`Could not load ${url}`)));
    doc.head.append(script);
  });
}

export type RecorderOutcome = 'local' | 'off' | 'started' | 'failed';

export interface RecorderDeps {
  hostname: string;
  /** The script's URL from the deployment, or null when it has none. */
  scriptUrl: () => Promise<string | null>;
  load?: (url: string) => Promise<void>;
  log?: (message: string, cause: unknown) => void;
}

/**
 * Starts the recorder where it belongs: not on a local or private host (not even asking the
 * server), not when the deployment names no script; a failure to learn the URL or to load the
 * script is logged as ANALYTICS_FAILURE and is otherwise ignored.
 */
export async function startSessionRecorder({
  hostname,
  scriptUrl,
  load = loadScript,
  log = (message, cause) => console.error(message, cause),
}: RecorderDeps): Promise<RecorderOutcome> {
  if (isLocalOrPrivateHost(hostname)) return 'local';
  try {
    const url = await scriptUrl();
    if (!url) return 'off';
    await load(url);
    return 'started';
  } catch (cause) {
    log(ANALYTICS_FAILURE, cause);
    return 'failed';
  }
}
