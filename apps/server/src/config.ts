import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

const booleanVar = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

/** Every environment variable the server reads, with its default. README's table mirrors this. */
const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default(path.join(repoRoot, 'data')),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * How logs are written: `pretty` (coloured lines for a person at a terminal) or `json` (one object
   * per line, for a log collector). Unset: pretty when stdout is a terminal, else JSON.
   */
  LOG_FORMAT: z.enum(['pretty', 'json']).optional(),
  /** Older switch for LOG_FORMAT=pretty (true) or json (false); LOG_FORMAT wins. */
  LOG_PRETTY: booleanVar.optional(),
  WEB_DIST: z.string().min(1).default(path.join(repoRoot, 'apps/web/dist')),
  DEMO_DATA: booleanVar.default(true),
  /** Run the demo portal's connected locks as simulated locks (packages/locksim) beside the server. */
  DEMO_LOCKS: booleanVar.default(true),
  /** Run three simulated Z-Wave locks behind the Z-Wave bridge beside the server (docs/bridges/zwave.md). */
  DEMO_ZWAVE: booleanVar.default(false),
  SESSION_TTL_HOURS: z.coerce
    .number()
    .min(0.05)
    .max(24 * 30)
    .default(12),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  SEAL_SECRET_KEY: z
    .string()
    .regex(/^[A-Za-z0-9+/]{43}=$/, 'must be a base64 32-byte key')
    .optional(),
  TRUST_PROXY: booleanVar.default(false),
  LOGIN_LIMIT_PER_IP: z.coerce.number().int().min(1).default(30),
  LOGIN_LIMIT_PER_EMAIL: z.coerce.number().int().min(1).default(10),
  SIGNUP_LIMIT_PER_IP: z.coerce.number().int().min(1).default(20),
  /** Requests one API key may make per minute (features/api-keys), counted in Redis with REDIS_URL. */
  API_KEY_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  /** smtp://user:pass@host:port or smtps://…; without it, mail stays in the dev mailbox (the outbox). */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z.string().min(3).default('Latchkey <no-reply@latchkey.local>'),
  /** Invitation mails (guest invites, portal invitations) to one address per hour, from all portals. */
  MAIL_LIMIT_PER_RECIPIENT: z.coerce.number().int().min(1).default(5),
  /** Invitation mails one person may cause per hour. */
  MAIL_LIMIT_PER_SENDER: z.coerce.number().int().min(1).default(30),
  /** Invitation mails one portal may cause per day. */
  MAIL_LIMIT_PER_PORTAL: z.coerce.number().int().min(1).default(100),
  /** How often the mail sender looks for due mail; 0 turns it off (tests send by hand). */
  MAIL_POLL_MS: z.coerce.number().int().min(0).default(2000),
  /** The address people reach the portal at, for links in mail. Default: http://HOST:PORT. */
  PUBLIC_URL: z.url().optional(),
  /** Other origins allowed to call the API from a browser (comma-separated); none by default. */
  CORS_ORIGINS: z
    .string()
    .default('')
    .transform((s) =>
      s
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.url('must be origins such as https://app.example.com'))),
  /**
   * The session recorder's script (brief §7: "loaded from a CDN and started only outside local or
   * private-network hosts"): an https URL; unset (the default), no recorder is loaded and the
   * content security policy allows no other script origin. Its origin is added to the policy's
   * script and connect sources.
   */
  SESSION_RECORDER_URL: z
    .url()
    .refine((url) => url.startsWith('https://'), 'must be an https:// URL')
    .optional(),
  /**
   * mqtt://, mqtts://, ws:// or wss:// URL of an external broker (Mosquitto) shared by several
   * servers; without it the server embeds its own broker on MQTT_PORT.
   */
  MQTT_URL: z
    .string()
    .regex(/^(mqtts?|wss?):\/\//, 'must be an mqtt://, mqtts://, ws:// or wss:// URL')
    .optional(),
  /**
   * Where locks connect, as their installer is told (the dialog after "Add lock", the about
   * screen): mqtt://, mqtts://, ws:// or wss://. Unset: the embedded broker's port on PUBLIC_URL's
   * host; with MQTT_URL, the locks' listener is Mosquitto's and only this setting can name it.
   */
  MQTT_PUBLIC_URL: z
    .string()
    .regex(/^(mqtts?|wss?):\/\//, 'must be an mqtt://, mqtts://, ws:// or wss:// URL')
    .optional(),
  /**
   * With MQTT_URL: how long start-up waits for that broker to answer, trying again with back-off
   * (a first deployment may start the servers before the broker), before it stops with a message.
   */
  MQTT_WAIT_S: z.coerce.number().int().min(0).max(3600).default(60),
  /**
   * Port of the embedded broker. Unset: 1883, or any free port (logged) when 1883 is taken; set:
   * exactly this port, and a taken one stops start-up. 0 takes any free port.
   */
  MQTT_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /**
   * A lock with no status for this long is marked offline: locks send one at least every 30 s
   * (device protocol §3.1), and 1.5 periods is MQTT's own keep-alive grace. With the sweep every
   * 5 s, a lock that drops without a last will is shown offline within 50 s.
   */
  MQTT_HEARTBEAT_S: z.coerce.number().min(1).max(86_400).default(45),
  /** How long a remote unlock/lock stays valid for the lock. */
  MQTT_COMMAND_TTL_S: z.coerce.number().min(1).max(3600).default(30),
  /** Embedded broker: a connection that has not sent its CONNECT after this long is closed. */
  MQTT_CONNECT_TIMEOUT_S: z.coerce.number().min(0.05).max(300).default(5),
  /** Embedded broker: open connections per remote address (a site's locks may share one address). */
  MQTT_MAX_CONNECTIONS_PER_IP: z.coerce.number().int().min(1).default(100),
  /**
   * Embedded broker: addresses with a limit of their own instead, as `address=limit` pairs separated
   * by commas (`10.0.0.5=600,fd00::7=300`): a bridge (docs/bridges/zwave.md) holds one connection per
   * lock behind it, so its address is given room without raising the limit for every address.
   */
  MQTT_CONNECTIONS_BY_IP: z
    .string()
    .default('')
    .transform((text, ctx) => {
      const limits: Record<string, number> = {};
      for (const pair of text
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean)) {
        const match = /^(.+)=(\d+)$/.exec(pair);
        const limit = match ? Number(match[2]) : 0;
        if (!match || !net.isIP(match[1]!) || limit < 1) {
          ctx.addIssue({
            code: 'custom',
            message: `"${pair}" is not an address=limit pair (e.g. 10.0.0.5=600)`,
          });
          return z.NEVER;
        }
        limits[match[1]!] = limit;
      }
      return limits;
    }),
  /** Embedded broker: failed logins per remote address and minute; then its logins wait out the minute. */
  MQTT_FAILED_CONNECTS_PER_IP: z.coerce.number().int().min(1).default(20),
  /**
   * redis:// or rediss:// URL: live-channel messages fan out through Redis pub/sub, so a socket on
   * one server gets what another server publishes, and rate limits (sign-in, mail) are shared by
   * every server. Without it, both stay in this process.
   */
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
    .optional(),
  /** How often each live-channel socket's session is checked again (sign-out, suspension end it). */
  LIVE_SESSION_CHECK_S: z.coerce.number().min(0.05).max(3600).default(30),
  /**
   * Payments (features/payments): with both Stripe keys, checkout goes through Stripe; without
   * them, through the built-in sandbox provider (test cards, no network).
   */
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_(test|live)_\w+$/, 'must be a Stripe secret key (sk_test_…, sk_live_…)')
    .optional(),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_\w+$/, 'must be a webhook signing secret (whsec_…)')
    .optional(),
  /** Where the Stripe SDK sends its requests (tests point it at a fake Stripe); default Stripe's API. */
  STRIPE_API_URL: z.url().optional(),
  /** How long a checkout (and the stock it holds) stays open, in minutes (Stripe: 30 to 1440). */
  CHECKOUT_EXPIRY_MINUTES: z.coerce.number().int().min(30).max(1440).default(30),
  /**
   * Hold portals to their plans: the lock allowance (Free: 2 locks; a portal that is not paid up has
   * the Free plan's) and the plan features (rentals: Business). Off (`false`) for a deployment that
   * sells no plans: any number of locks, and every feature.
   */
  PLAN_LOCK_LIMITS: booleanVar.default(true),
  /** How often open checkouts are expired and sandbox webhooks retried; 0 turns it off (tests). */
  PAYMENTS_SWEEP_MS: z.coerce.number().int().min(0).default(60_000),
  /** The issuer (seller) printed on every bill; set these for real invoices (README, "Billing"). */
  INVOICE_ISSUER_NAME: z.string().min(1).max(120).default('Latchkey'),
  /** The issuer's postal address, lines separated by ";". */
  INVOICE_ISSUER_ADDRESS: z.string().max(400).default(''),
  /** ISO country code of the issuer: decides domestic VAT and reverse charge. */
  INVOICE_ISSUER_COUNTRY: z
    .string()
    .regex(/^[A-Z]{2}$/, 'must be an ISO country code such as DE')
    .default('DE'),
  INVOICE_ISSUER_VAT_ID: z.string().max(20).default(''),
  INVOICE_ISSUER_EMAIL: z.string().max(254).default(''),
  /** Starts every invoice number (LK-2026-000123); numbers are gap-free per prefix and year. */
  INVOICE_PREFIX: z
    .string()
    .regex(/^[A-Z0-9]{1,8}$/, 'must be 1–8 capital letters or digits')
    .default('LK'),
  /** How often a server looks for months to close into bills; 0 turns it off. */
  BILLING_CLOSE_INTERVAL_S: z.coerce.number().min(0).max(86_400).default(900),
  /** Stay requests one address may send per hour from the public request pages (issue 12). */
  RENTAL_REQUESTS_PER_IP: z.coerce.number().int().min(1).default(10),
  /** Stay requests per hour for one requester email address (each one mails it a confirmation). */
  RENTAL_REQUESTS_PER_EMAIL: z.coerce.number().int().min(1).default(3),
  /** How often stays waiting for their locks are checked (guest mail, alerts); 0 turns it off (tests). */
  STAY_ACCESS_CHECK_MS: z.coerce.number().int().min(0).default(5000),
  /** Minutes after a stay's access changed before an unconfirmed lock raises an alert to the owner. */
  STAY_ACCESS_ALERT_MINUTES: z.coerce.number().min(1).max(1440).default(15),
  /** Minutes between two reads of each imported iCal feed (Airbnb, Vrbo…); 0 turns the periodic import off. */
  ICAL_SYNC_MINUTES: z.coerce.number().int().min(0).max(1440).default(30),
  /** Seconds before "sync now" may read the same feed again (429 with Retry-After sooner); 0 in tests. */
  ICAL_SYNC_NOW_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
  /** How long one feed read may take, redirects included. */
  ICAL_FETCH_TIMEOUT_MS: z.coerce.number().int().min(500).max(120_000).default(15_000),
  /** The largest feed read (bytes, after decompression). */
  ICAL_MAX_BYTES: z.coerce.number().int().min(1_000).max(50_000_000).default(2_000_000),
  /**
   * Let feed URLs reach private, loopback and link-local addresses. Off in production (a feed URL
   * must not reach the server's own network); tests and development turn it on for a local server.
   */
  ICAL_ALLOW_PRIVATE_HOSTS: booleanVar.default(false),
  /**
   * Let webhook endpoints be http:// addresses and reach private, loopback and link-local
   * addresses (features/webhooks). Off in production; tests and local set-ups target 127.0.0.1.
   */
  WEBHOOK_ALLOW_PRIVATE_ADDRESSES: booleanVar.default(false),
  /** How often a server looks for due webhook deliveries (new ones wake it at once); 0 turns delivery off. */
  WEBHOOK_POLL_MS: z.coerce.number().int().min(0).max(600_000).default(1000),
  /** How long one webhook attempt may take before it counts as failed. */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(15_000),
  /** Comma-separated delays (ms) of the retry schedule; empty: the Svix schedule (tests shorten it). */
  WEBHOOK_RETRY_SCHEDULE_MS: z
    .string()
    .regex(/^(\s*\d+\s*(,\s*\d+\s*)*)?$/, 'must be comma-separated milliseconds')
    .default(''),
  /** How often stays that ended are looked for, to mail their guests the review link; 0 turns it off. */
  REVIEW_MAIL_CHECK_MS: z.coerce.number().int().min(0).default(600_000),
  FEATURES: z
    .string()
    .default('')
    .transform((s) =>
      s
        .split(',')
        .map((f) => f.trim())
        .filter(Boolean),
    ),
});

export type Config = z.output<typeof envSchema>;

/**
 * The address this server listens at, as a person would type it: HOST and PORT, with `localhost`
 * for "every interface". `port`: the port actually taken (PORT=0 takes any).
 */
export function listenUrlOf(config: Config, port = config.PORT): string {
  const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/**
 * Where links in mail and payment pages point: PUBLIC_URL without a trailing slash, or the address
 * this server listens at, the one its start-up line prints. (It was http://localhost:PORT while the
 * line printed 127.0.0.1: to a browser those are two sites, so a person shopping on one came back
 * from paying on the other, signed out and with the paid items still in the first one's cart.)
 */
export function publicUrlOf(config: Config): string {
  return (config.PUBLIC_URL ?? listenUrlOf(config)).replace(/\/$/, '');
}

/**
 * The broker address a lock is set up with: MQTT_PUBLIC_URL, else the embedded broker's port
 * (`brokerUrl`, the one it took) on the host people reach the portal at (PUBLIC_URL's, or the
 * listen address's). Null with an external broker (MQTT_URL) and no MQTT_PUBLIC_URL: that URL is
 * the servers' own listener, where locks cannot log in.
 */
export function lockBrokerUrlOf(config: Config, brokerUrl: string): string | null {
  if (config.MQTT_PUBLIC_URL) return config.MQTT_PUBLIC_URL.replace(/\/$/, '');
  if (config.MQTT_URL) return null;
  const port = new URL(brokerUrl).port || '1883';
  return `mqtt://${new URL(publicUrlOf(config)).hostname}:${port}`;
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/**
 * A warning when PUBLIC_URL names this machine by another name or port than the one the server
 * listens at: the two are separate sites to a browser (sessions and carts do not cross). A
 * PUBLIC_URL elsewhere (a proxy's domain) is the deployment's business and not warned about.
 */
export function publicUrlMismatch(config: Config, port = config.PORT): string | null {
  if (!config.PUBLIC_URL) return null;
  const wanted = new URL(config.PUBLIC_URL);
  if (!LOOPBACK_HOSTS.has(wanted.hostname)) return null;
  const listening = new URL(listenUrlOf(config, port));
  if (wanted.host === listening.host) return null;
  return `PUBLIC_URL ${wanted.origin} is not the address this server listens at (${listening.origin}): to a browser they are two sites, so people signed in on one are signed out on the other, and links in mail and payment pages lead to ${wanted.origin}. Open the portal at PUBLIC_URL, or set PUBLIC_URL=${listening.origin}`;
}

/** The log format in effect: LOG_FORMAT, else LOG_PRETTY, else pretty exactly when stdout is a terminal. */
export function logFormatOf(config: Config, stdoutIsTty = process.stdout.isTTY === true): 'pretty' | 'json' {
  if (config.LOG_FORMAT) return config.LOG_FORMAT;
  if (config.LOG_PRETTY !== undefined) return config.LOG_PRETTY ? 'pretty' : 'json';
  return stdoutIsTty ? 'pretty' : 'json';
}

/**
 * The level the server logs at: LOG_LEVEL when set. Unset, `warn` at a terminal (pretty lines),
 * so a person's start-up is a few lines ending in the address and the demo sign-ins (main.ts)
 * instead of ~270 (every migration, the demo's mail, each credential recompute); `info` in JSON,
 * for a log collector and the tests that read it.
 */
export function logLevelOf(
  config: Config,
  env: Record<string, string | undefined> = process.env,
  stdoutIsTty = process.stdout.isTTY === true,
): Config['LOG_LEVEL'] {
  if (env.LOG_LEVEL) return config.LOG_LEVEL;
  return logFormatOf(config, stdoutIsTty) === 'pretty' ? 'warn' : config.LOG_LEVEL;
}

export class ConfigError extends Error {}

/** Reads and checks the configuration; a bad value stops start-up with one line per problem. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const known = Object.fromEntries(
    Object.keys(envSchema.shape)
      .filter((key) => env[key] !== undefined && env[key] !== '')
      .map((key) => [key, env[key]]),
  );
  const parsed = envSchema.safeParse(known);
  if (!parsed.success) {
    const lines = parsed.error.issues.map(
      (issue) =>
        `  ${issue.path.join('.')}=${JSON.stringify(known[String(issue.path[0])])}: ${issue.message}`,
    );
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
