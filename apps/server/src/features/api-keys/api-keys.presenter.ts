import { personName } from '@latchkey/shared';
import type { ApiKeyRecord } from '@latchkey/shared';
import { toIso } from '../../db/mappers';
import type { ApiKeyWithCreator } from './api-keys.repository';

/** A key as the API answers it: never its secret or its hash. */
export function toApiKeyRecord(row: ApiKeyWithCreator): ApiKeyRecord {
  const creatorName = personName(row.creator_first_name, row.creator_last_name, row.creator_email);
  return {
    _id: row.id,
    name: row.name,
    prefix: `lk_live_${row.prefix}`,
    scopes: JSON.parse(row.scopes_json) as string[],
    allowedAddresses: JSON.parse(row.allowed_addresses_json) as string[],
    createdBy: row.created_by && creatorName ? { _id: row.created_by, name: creatorName } : null,
    createdAt: toIso(row.created_at),
    expiresAt: row.expires_at === null ? null : toIso(row.expires_at),
    lastUsedAt: row.last_used_at === null ? null : toIso(row.last_used_at),
    lastUsedIp: row.last_used_ip,
    revokedAt: row.revoked_at === null ? null : toIso(row.revoked_at),
  };
}
