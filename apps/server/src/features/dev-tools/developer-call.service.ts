import crypto from 'node:crypto';
import { performance } from 'node:perf_hooks';
import {
  API_BASE_PATH,
  CLIENT_VERSION_HEADER,
  DEVELOPER_CALL_MAX_ANSWER_CHARS,
  DEVELOPER_CALL_PATH,
  PORTAL_OVERRIDE_HEADER,
  type DeveloperCallInput,
  type DeveloperCallResult,
} from '@latchkey/shared';
import type { FastifyInstance, FastifyRequest, InjectOptions } from 'fastify';
import { appendAuditEntry, type AuditEntry } from '../../base/audit/audit.repository';
import { signedIn, type RequestAuth } from '../../base/http/access';
import { AppError } from '../../base/http/errors';
import { actingPortalFor } from '../../base/tenancy/acting-portal';
import { appendPlatformAudit } from '../platform/platform.repository';

/**
 * Marks the inner request of a developer call. The console's own route refuses any request that
 * carries it, so a call can never run the console again, however its path is spelled.
 */
export const DEVELOPER_CALL_MARK_HEADER = 'x-latchkey-developer-call';

const pathProblem = (message: string) => AppError.badRequest(message, [{ path: 'body.path', message }]);

/** Where the inner call goes: its URL under /api3, and what the audit keeps of it. */
export interface InnerTarget {
  /** Path and query string, as the inner request's URL. */
  url: string;
  /** The path alone: the audit keeps it, not the query (which may hold a token). */
  pathname: string;
  /** The names of the query's parameters (their values are not kept). */
  queryNames: string[];
}

/**
 * Resolves a path typed into the console (relative to /api3; a leading `/` or `/api3/` is dropped)
 * the way a browser would, then refuses what leads out of /api3 (`..`, an encoded `%2e%2e` or
 * `%2f..`, another host) and the console's own route (whatever its case, slashes or encoding).
 */
export function innerTargetOf(path: string): InnerTarget {
  const relative = path.replace(/^\/?(api3\/)?/i, '');
  if (relative.startsWith('/') || relative.includes('\\')) {
    throw pathProblem('The path must lead to a route under /api3');
  }
  const origin = 'http://developer-call.invalid';
  let resolved: URL;
  try {
    resolved = new URL(`${API_BASE_PATH}/${relative}`, origin);
  } catch {
    throw pathProblem('The path is not a valid address path');
  }
  if (resolved.origin !== origin || !resolved.pathname.startsWith(`${API_BASE_PATH}/`)) {
    throw pathProblem('The path must lead to a route under /api3');
  }
  let decoded: string;
  try {
    decoded = decodeURIComponent(resolved.pathname);
  } catch {
    throw pathProblem('The path holds a broken %-escape');
  }
  if (decoded.split('/').some((segment) => segment === '..' || segment === '.')) {
    throw pathProblem('The path must lead to a route under /api3');
  }
  const canonical = decoded
    .toLowerCase()
    .replace(/\/{2,}/g, '/')
    .replace(/\/+$/, '');
  if (canonical === `${API_BASE_PATH}/${DEVELOPER_CALL_PATH}`.toLowerCase()) {
    throw pathProblem('The console cannot run itself');
  }
  return {
    url: `${resolved.pathname}${resolved.search}`,
    pathname: resolved.pathname,
    queryNames: [...new Set(resolved.searchParams.keys())],
  };
}

function headerValue(value: string | string[] | number | undefined): string | undefined {
  if (value === undefined) return undefined;
  return Array.isArray(value) ? value.join(', ') : String(value);
}

const TEXT_TYPES = /^text\/|[/+](json|xml|csv|javascript|x-ndjson)\b|x-www-form-urlencoded/i;

/** The answer's bytes as the console shows them: parsed JSON, text (cut if long), or a note for binary. */
export function decodeAnswer(
  raw: Buffer,
  contentType: string | null,
): Pick<DeveloperCallResult, 'body' | 'bodyKind' | 'size' | 'truncated'> {
  const size = raw.length;
  if (size === 0) return { body: null, bodyKind: 'empty', size, truncated: false };
  if (!contentType || !TEXT_TYPES.test(contentType)) {
    return { body: null, bodyKind: 'binary', size, truncated: false };
  }
  const text = raw.toString('utf8');
  if (text.length > DEVELOPER_CALL_MAX_ANSWER_CHARS) {
    return { body: text.slice(0, DEVELOPER_CALL_MAX_ANSWER_CHARS), bodyKind: 'text', size, truncated: true };
  }
  if (/json/i.test(contentType)) {
    try {
      return { body: JSON.parse(text) as unknown, bodyKind: 'json', size, truncated: false };
    } catch {
      // Not JSON after all: shown as the text it is.
    }
  }
  return { body: text, bodyKind: 'text', size, truncated: false };
}

/**
 * The portal a call acts in, whose change log records it: the override's portal where the caller
 * may act there (else the inner call is refused, and the caller's own portal records the attempt),
 * otherwise the portal the console's request acts in; null for staff with no portal at all.
 */
async function portalOfCall(app: FastifyInstance, auth: RequestAuth, override: string | null) {
  if (override) {
    const acting = await actingPortalFor(app.db, auth.user, auth.memberships, override);
    if (acting) return acting.portal.id;
  }
  return auth.acting?.portal.id ?? null;
}

/**
 * Runs one call through the whole server (`app.inject`: every hook, access check, sealed-body
 * check and rate limit of the inner route) with the caller's own Authorization header, so it has
 * exactly the caller's rights. Every call, answered or not, is written to the server log and to
 * the change log of the portal it acts in (docs/decisions.md "Developer tools").
 */
export async function runDeveloperCall(
  app: FastifyInstance,
  request: FastifyRequest,
  input: DeveloperCallInput,
): Promise<DeveloperCallResult> {
  if (request.headers[DEVELOPER_CALL_MARK_HEADER] !== undefined) {
    throw AppError.badRequest('A developer call cannot run another developer call');
  }
  const auth = signedIn(request);
  const target = innerTargetOf(input.path);
  const outerOverride = headerValue(request.headers[PORTAL_OVERRIDE_HEADER]);
  const override = input.portalOverride ?? outerOverride ?? null;
  const portalId = await portalOfCall(app, auth, override);

  const headers: Record<string, string> = {
    accept: 'application/json',
    [DEVELOPER_CALL_MARK_HEADER]: '1',
  };
  const authorization = headerValue(request.headers.authorization);
  if (authorization) headers.authorization = authorization;
  const version = headerValue(request.headers[CLIENT_VERSION_HEADER]);
  if (version) headers[CLIENT_VERSION_HEADER] = version;
  if (override) headers[PORTAL_OVERRIDE_HEADER] = override;
  const inject: InjectOptions = {
    method: input.method,
    url: target.url,
    headers,
    // The inner call comes from the caller's address: its per-address limits count the caller.
    remoteAddress: request.ip,
  };
  if (input.method !== 'GET' && input.body !== undefined && input.body !== '') {
    headers['content-type'] = 'application/json';
    inject.payload = input.body;
  }

  const callId = crypto.randomUUID();
  const record = (status: number | null, durationMs: number) =>
    recordDeveloperCall(app, request, {
      callId,
      portalId,
      method: input.method,
      target,
      override,
      status,
      durationMs,
    });

  const started = performance.now();
  let response;
  try {
    response = await app.inject(inject);
  } catch (error) {
    await record(null, performance.now() - started);
    throw error;
  }
  const durationMs = Math.round((performance.now() - started) * 10) / 10;
  await record(response.statusCode, durationMs);

  const answerHeaders: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    const text = headerValue(value);
    if (text !== undefined) answerHeaders[name] = text;
  }
  const contentType = answerHeaders['content-type'] ?? null;
  return {
    status: response.statusCode,
    headers: answerHeaders,
    durationMs,
    contentType,
    portalId,
    ...decodeAnswer(response.rawPayload, contentType),
  };
}

interface CallRecord {
  callId: string;
  portalId: string | null;
  method: string;
  target: InnerTarget;
  override: string | null;
  status: number | null;
  durationMs: number;
}

/**
 * The audit of one developer call: the server log and the platform's own change log always, and the
 * change log of the portal the call acts in (where that portal's admins see what platform staff did
 * there, as with support sessions). What was called and how it was answered, never the body or the
 * query's values.
 */
async function recordDeveloperCall(app: FastifyInstance, request: FastifyRequest, call: CallRecord) {
  const staff = signedIn(request).user;
  const summary = {
    name: `${call.method} ${call.target.pathname.slice(API_BASE_PATH.length + 1)}`,
    method: call.method,
    path: call.target.pathname,
    queryNames: call.target.queryNames,
    portalOverride: call.override,
    status: call.status,
    durationMs: Math.round(call.durationMs),
  };
  request.log.warn(
    { developerCall: { id: call.callId, staffId: staff.id, portalId: call.portalId, ...summary } },
    'developer call',
  );
  const entry = {
    actorUserId: staff.id,
    action: 'developer_call.run',
    entityType: 'developer_call',
    entityId: call.callId,
    after: { ...summary, staff: staff.email },
    ip: request.ip,
  } satisfies AuditEntry;
  await appendPlatformAudit(app.db, { ...entry, portalId: call.portalId });
  if (call.portalId) await appendAuditEntry(app.db, call.portalId, entry);
}
