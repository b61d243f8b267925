import { personName } from '@latchkey/shared';
import type { ClientError, ClientErrorDetail } from '@latchkey/shared';
import { toIso } from '../../db/mappers';
import type { ClientErrorRecord } from './client-errors.repository';

export function presentClientError(row: ClientErrorRecord): ClientError {
  const resolverName = personName(row.resolver_first, row.resolver_last, row.resolver_email);
  return {
    _id: row.id,
    fingerprint: row.fingerprint,
    message: row.message,
    topFrame: row.top_frame,
    route: row.route,
    build: row.build,
    userAgent: row.user_agent,
    count: Number(row.count),
    status: row.status,
    firstSeen: toIso(row.first_seen),
    lastSeen: toIso(row.last_seen),
    resolvedAt: toIso(row.resolved_at),
    resolvedBy: row.resolved_by ? { _id: row.resolved_by, name: resolverName } : null,
  };
}

export function presentClientErrorDetail(row: ClientErrorRecord): ClientErrorDetail {
  return { ...presentClientError(row), stack: row.stack };
}
