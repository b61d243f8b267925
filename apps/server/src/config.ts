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
  LOG_PRETTY: booleanVar.default(false),
  WEB_DIST: z.string().min(1).default(path.join(repoRoot, 'apps/web/dist')),
  DEMO_DATA: booleanVar.default(true),
  /** Run the demo portal's connected locks as simulated locks (packages/locksim) beside the server. */
  DEMO_LOCKS: booleanVar.default(true),
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
  /** smtp://user:pass@host:port or smtps://…; without it, mail stays in the dev mailbox (the outbox). */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z.string().min(3).default('Latchkey <no-reply@latchkey.local>'),
  /** How often the mail sender looks for due mail; 0 turns it off (tests send by hand). */
  MAIL_POLL_MS: z.coerce.number().int().min(0).default(2000),
  /** The address people reach the portal at, for links in mail. Default: http://localhost:PORT. */
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
   * mqtt://, mqtts://, ws:// or wss:// URL of an external broker (Mosquitto) shared by several
   * servers; without it the server embeds its own broker on MQTT_PORT.
   */
  MQTT_URL: z
    .string()
    .regex(/^(mqtts?|wss?):\/\//, 'must be an mqtt://, mqtts://, ws:// or wss:// URL')
    .optional(),
  /**
   * Port of the embedded broker. Unset: 1883, or any free port (logged) when 1883 is taken; set:
   * exactly this port, and a taken one stops start-up. 0 takes any free port.
   */
  MQTT_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /** A lock with no status for this long is marked offline. */
  MQTT_HEARTBEAT_S: z.coerce.number().min(1).max(86_400).default(90),
  /** How long a remote unlock/lock stays valid for the lock. */
  MQTT_COMMAND_TTL_S: z.coerce.number().min(1).max(3600).default(30),
  /**
   * redis:// or rediss:// URL: live-channel messages fan out through Redis pub/sub, so a socket on
   * one server gets what another server publishes. Without it, fan-out stays in this process.
   */
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
    .optional(),
  /** How often each live-channel socket's session is checked again (sign-out, suspension end it). */
  LIVE_SESSION_CHECK_S: z.coerce.number().min(0.05).max(3600).default(30),
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

/** Where links in mail point: PUBLIC_URL without a trailing slash, or this server on localhost. */
export function publicUrlOf(config: Config): string {
  return (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/$/, '');
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
