import { personName } from '@latchkey/shared';
import type { AuditEntry } from '@latchkey/shared';
import { toIso } from '../../db/mappers';
import type { AuditRow } from '../../base/audit/audit.repository';

/** A change-log row as the API answers it. */
export function toAuditEntry(row: AuditRow): AuditEntry {
  const parse = (json: string | null) => (json === null ? null : (JSON.parse(json) as unknown));
  return {
    _id: row.id,
    actor:
      // A change made with an API key names the key: "API key 'PMS sync' (lk_live_ab12cd34)".
      row.api_key_id && row.api_key_name
        ? {
            _id: row.api_key_id,
            email: '',
            name: `API key '${row.api_key_name}' (lk_live_${row.api_key_prefix})`,
          }
        : row.actor_user_id && row.actor_email
          ? {
              _id: row.actor_user_id,
              email: row.actor_email,
              name: personName(row.actor_first_name, row.actor_last_name, row.actor_email),
            }
          : null,
    action: row.action,
    entityType: row.entity_type,
    entityId: row.entity_id,
    before: parse(row.before_json),
    after: parse(row.after_json),
    ip: row.ip,
    createdAt: toIso(row.created_at),
  };
}
