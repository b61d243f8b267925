import nacl from 'tweetnacl';
import naclUtil from 'tweetnacl-util';
import { z } from 'zod';
import { idSchema, lineText, multilineText } from './safe-input';

/**
 * Developer tools (issue 20, item 3): the API console's developer call (brief §7 "a developer call
 * that runs any method and path with a JSON body", platform staff only) and what the public
 * /test/api page asks the server (what it saw of the request, the sealed envelope's round trip).
 */

/** The methods the console runs. */
export const DEVELOPER_CALL_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type DeveloperCallMethod = (typeof DEVELOPER_CALL_METHODS)[number];

/** The longest JSON body the console sends, in characters (a sealed envelope's box fits well). */
export const DEVELOPER_CALL_MAX_BODY_CHARS = 100_000;
/** The longest answer the console shows: text past this is cut (and said so). */
export const DEVELOPER_CALL_MAX_ANSWER_CHARS = 200_000;

/** The one API path the console will not run: itself. */
export const DEVELOPER_CALL_PATH = 'system/developerCall';

/** Whether a string is JSON text (what the console's body must be). */
export function isJsonText(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * A path relative to the API base (`portal/device`, `portal/users?limit=5`): no scheme, host,
 * backslash or way out of /api3 (the server resolves it and checks again after decoding).
 */
export const developerCallPathSchema = lineText()
  .min(1, 'is required')
  .max(2000)
  .refine((path) => !/^[A-Za-z][A-Za-z0-9+.-]*:/.test(path), 'must be a path under /api3, not an address')
  .refine((path) => !path.startsWith('//') && !path.includes('\\'), 'must be a path under /api3');

/** POST system/developerCall: one call, run as the signed-in person. */
export const developerCallInputSchema = z
  .object({
    method: z.enum(DEVELOPER_CALL_METHODS),
    /** Relative to /api3, with its query string if any. */
    path: developerCallPathSchema,
    /** JSON text, sent as the call's body (not with GET). */
    body: multilineText()
      .max(DEVELOPER_CALL_MAX_BODY_CHARS, `must be at most ${DEVELOPER_CALL_MAX_BODY_CHARS} characters`)
      .refine(isJsonText, 'must be JSON (check quotes, commas and brackets)')
      .optional(),
    /** The portal to act in; without it, the portal the console's own request acts in. */
    portalOverride: idSchema.optional(),
  })
  .refine((input) => !(input.method === 'GET' && input.body !== undefined && input.body !== ''), {
    path: ['body'],
    message: 'A GET call carries no body',
  });
export type DeveloperCallInput = z.infer<typeof developerCallInputSchema>;

/** What the answer's body was, so the console shows it rightly. */
export const DEVELOPER_CALL_BODY_KINDS = ['json', 'text', 'binary', 'empty'] as const;

export const developerCallResultSchema = z.object({
  /** The inner call's status: a 404 or 403 there is data here, not the console's own error. */
  status: z.number().int(),
  headers: z.record(z.string(), z.string()),
  /** Time the server took to run it, in milliseconds. */
  durationMs: z.number(),
  /** Parsed JSON, text, or null (a binary or empty answer). */
  body: z.unknown(),
  bodyKind: z.enum(DEVELOPER_CALL_BODY_KINDS),
  contentType: z.string().nullable(),
  /** The answer's size in bytes. */
  size: z.number().int(),
  /** The text was cut at DEVELOPER_CALL_MAX_ANSWER_CHARS. */
  truncated: z.boolean(),
  /** The portal the call acted in (its change log holds the call), or null. */
  portalId: z.string().nullable(),
});
export type DeveloperCallResult = z.infer<typeof developerCallResultSchema>;

/** GET about/client: what the server saw of the request (the /test/api page's checks). */
export const clientEchoSchema = z.object({
  /** The version header's value (brief §7: `web`), null when it was not sent; at most 40 characters. */
  versionHeader: z.string().nullable(),
  /** The address the request came from, as the server sees it (behind a trusted proxy: the client's). */
  clientAddress: z.string(),
  /** The server's clock when it answered. */
  serverTime: z.iso.datetime(),
});
export type ClientEcho = z.infer<typeof clientEchoSchema>;

/** POST about/sealCheck (sealed): a probe text the server opens and digests. */
export const sealCheckInputSchema = z.object({ probe: lineText().min(1).max(200) });
export type SealCheckInput = z.infer<typeof sealCheckInputSchema>;

export const sealCheckResultSchema = z.object({
  /** SHA-512 of the probe's UTF-8 bytes, in hex: the client computes the same to compare. */
  digest: z.string(),
  serverTime: z.iso.datetime(),
});
export type SealCheckResult = z.infer<typeof sealCheckResultSchema>;

/** The digest both sides compute of a seal check's probe: SHA-512 of its UTF-8 bytes, as hex. */
export function sealProbeDigest(probe: string): string {
  return Array.from(nacl.hash(naclUtil.decodeUTF8(probe)), (byte) => byte.toString(16).padStart(2, '0')).join(
    '',
  );
}
