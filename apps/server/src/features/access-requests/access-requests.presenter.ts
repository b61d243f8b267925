import { personName } from '@latchkey/shared';
import type { AccessRequest, Schedule } from '@latchkey/shared';
import { toIso } from '../../db/mappers';
import type { AccessRequestRecord } from './access-requests.repository';

export function presentAccessRequest(row: AccessRequestRecord): AccessRequest {
  return {
    _id: row.id,
    device: { _id: row.device_id, name: row.device_name },
    requester: {
      _id: row.user_id,
      name: personName(row.user_first, row.user_last, row.user_email),
      email: row.user_email,
    },
    note: row.note,
    status: row.status,
    schedule: row.schedule_json ? (JSON.parse(row.schedule_json) as Schedule | null) : null,
    reason: row.reason,
    answeredBy: row.answered_by
      ? { _id: row.answered_by, name: personName(row.answerer_first, row.answerer_last, row.answerer_email) }
      : null,
    answeredAt: toIso(row.answered_at),
    createdAt: toIso(row.created_at),
  };
}
