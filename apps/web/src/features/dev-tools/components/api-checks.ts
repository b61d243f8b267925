import {
  CLIENT_VERSION,
  CLIENT_VERSION_HEADER,
  SEAL_MAX_CLOCK_SKEW_MS,
  sealProbeDigest,
} from '@latchkey/shared';
import { errorMessage } from '@/lib/errors';
import { checkSeal } from '../api/check-seal';
import { getClientEcho, type TimedClientEcho } from '../api/get-client-echo';

/**
 * The /test/api page's checks (issue 20, item 3), run from the browser through the app's own HTTP
 * client: the API answers, the server sees the version header, a sealed envelope opens on the
 * server, and the two clocks agree well enough for sealed nonces (refused past five minutes).
 */

export type CheckState = 'passed' | 'warning' | 'failed';

export interface CheckResult {
  id: 'reachability' | 'version' | 'seal' | 'clock';
  title: string;
  state: CheckState;
  /** One sentence: what was found. */
  summary: string;
  /** What was sent and seen, for whoever debugs it. */
  details: string[];
}

/** From this far apart the clocks are worth a warning: sealed requests still work, not for long. */
export const CLOCK_WARN_MS = 60_000;
/** From this far apart the server refuses sealed nonces (signing in fails). */
export const CLOCK_FAIL_MS = SEAL_MAX_CLOCK_SKEW_MS;

/** How far the server's clock is ahead of the browser's (ms), and how precisely that is known. */
export function clockSkewOf({ echo, sentAt, receivedAt }: TimedClientEcho) {
  const midpoint = (sentAt + receivedAt) / 2;
  return { skewMs: Date.parse(echo.serverTime) - midpoint, uncertaintyMs: (receivedAt - sentAt) / 2 };
}

/** "4.2 s", "3 min 12 s": a stretch of time as people read it. */
export function formatDuration(ms: number): string {
  const abs = Math.abs(ms);
  if (abs < 1000) return `${Math.round(abs)} ms`;
  if (abs < 60_000) return `${(abs / 1000).toFixed(1)} s`;
  const minutes = Math.floor(abs / 60_000);
  const seconds = Math.round((abs % 60_000) / 1000);
  return seconds ? `${minutes} min ${seconds} s` : `${minutes} min`;
}

/** The clock check: passed within a minute, a warning up to five minutes, failed from five. */
export function clockCheck(skewMs: number, uncertaintyMs: number): CheckResult {
  const apart = Math.abs(skewMs);
  const direction = skewMs > 0 ? 'behind' : 'ahead of';
  const details = [
    `Browser ${direction} the server by ${formatDuration(apart)} (± ${formatDuration(uncertaintyMs)})`,
    `Sealed requests are refused from ${formatDuration(CLOCK_FAIL_MS)} apart`,
  ];
  const base = { id: 'clock' as const, title: 'Clock against the server', details };
  if (apart >= CLOCK_FAIL_MS)
    return {
      ...base,
      state: 'failed',
      summary: `This device's clock is ${formatDuration(apart)} off: signing in will fail. Set the clock automatically.`,
    };
  if (apart >= CLOCK_WARN_MS)
    return {
      ...base,
      state: 'warning',
      summary: `This device's clock is ${formatDuration(apart)} off: sealed requests fail from ${formatDuration(CLOCK_FAIL_MS)}.`,
    };
  return { ...base, state: 'passed', summary: `The clocks agree within ${formatDuration(apart)}.` };
}

/** A fresh probe for the seal check: nothing anyone could have sent before. */
export function newProbe(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return `probe-${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

export interface CheckDeps {
  echo: () => Promise<TimedClientEcho>;
  seal: (probe: string) => Promise<{ digest: string }>;
  probe: () => string;
}

const defaultDeps: CheckDeps = { echo: () => getClientEcho(), seal: checkSeal, probe: newProbe };

async function sealCheck(deps: CheckDeps): Promise<CheckResult> {
  const base = { id: 'seal' as const, title: 'Sealed envelope round trip' };
  const probe = deps.probe();
  const expected = sealProbeDigest(probe);
  try {
    const { digest } = await deps.seal(probe);
    const details = [
      `POST /api3/about/sealCheck, sealed: { probe: "${probe}" }`,
      `SHA-512 ${digest.slice(0, 16)}…`,
    ];
    if (digest !== expected)
      return {
        ...base,
        state: 'failed',
        summary: 'The server opened the envelope, but its digest of the probe differs from ours.',
        details: [...details, `Expected ${expected.slice(0, 16)}…`],
      };
    return {
      ...base,
      state: 'passed',
      summary: 'The server opened the sealed probe; its digest matches.',
      details,
    };
  } catch (error) {
    return {
      ...base,
      state: 'failed',
      summary: `The sealed probe did not come back: ${errorMessage(error)}`,
      details: ['POST /api3/about/sealCheck, sealed with the key from GET /api3/auth/sealKey'],
    };
  }
}

/** Runs every check once; a check that cannot run (the API did not answer) fails saying why. */
export async function runApiChecks(deps: CheckDeps = defaultDeps): Promise<CheckResult[]> {
  const [echoOutcome, seal] = await Promise.all([
    deps.echo().then(
      (timed) => ({ ok: true as const, timed }),
      (error: unknown) => ({ ok: false as const, error }),
    ),
    sealCheck(deps),
  ]);

  if (!echoOutcome.ok) {
    const why = errorMessage(echoOutcome.error);
    const notChecked = 'Not checked: the API did not answer.';
    return [
      {
        id: 'reachability',
        title: 'API reachable',
        state: 'failed',
        summary: `GET /api3/about/client failed: ${why}`,
        details: [],
      },
      { id: 'version', title: 'Version header', state: 'failed', summary: notChecked, details: [] },
      seal,
      { id: 'clock', title: 'Clock against the server', state: 'failed', summary: notChecked, details: [] },
    ];
  }

  const { timed } = echoOutcome;
  const { echo } = timed;
  const roundTrip = timed.receivedAt - timed.sentAt;
  const sawVersion = echo.versionHeader === CLIENT_VERSION;
  const { skewMs, uncertaintyMs } = clockSkewOf(timed);
  return [
    {
      id: 'reachability',
      title: 'API reachable',
      state: 'passed',
      summary: `The API answered in ${formatDuration(roundTrip)}.`,
      details: ['GET /api3/about/client → 200', `The server sees this browser at ${echo.clientAddress}`],
    },
    {
      id: 'version',
      title: 'Version header',
      state: sawVersion ? 'passed' : 'failed',
      summary: sawVersion
        ? `The server saw "${CLIENT_VERSION_HEADER}: ${CLIENT_VERSION}".`
        : echo.versionHeader === null
          ? `The server saw no "${CLIENT_VERSION_HEADER}" header: a proxy may drop it.`
          : `The server saw "${CLIENT_VERSION_HEADER}: ${echo.versionHeader}", not "${CLIENT_VERSION}".`,
      details: [`Sent: ${CLIENT_VERSION_HEADER}: ${CLIENT_VERSION}`],
    },
    seal,
    clockCheck(skewMs, uncertaintyMs),
  ];
}
