import { USER_LIST_COLUMNS } from '@latchkey/shared';
import type { Database } from '../../db/database';
import { toIso } from '../../db/mappers';
import { countLocksPerUser } from '../access/access.repository';
import { countCredentialsPerUser } from '../credentials/credentials.repository';
import { findMembers } from '../../base/tenancy/memberships.repository';
import { csvDocument } from '../../base/http/csv';

/** GET portal/user/list: every person of the portal with a summary of their access, as CSV. */
export async function exportMembersCsv(db: Database, portalId: string): Promise<string> {
  const [members, locks, credentials] = await Promise.all([
    findMembers(db, portalId),
    countLocksPerUser(db, portalId),
    countCredentialsPerUser(db, portalId),
  ]);
  const rows: (string | number | boolean)[][] = [];
  for (const member of members.sort((a, b) => (a.email < b.email ? -1 : 1))) {
    const held = credentials.get(member.id) ?? {};
    const row: Record<(typeof USER_LIST_COLUMNS)[number], string | number | boolean> = {
      email: member.email,
      firstName: member.first_name,
      lastName: member.last_name,
      role: member.role,
      owner: Number(member.is_owner) === 1,
      status: member.status,
      joinedAt: toIso(member.created_at),
      hasAccessCode: (held.code ?? 0) > 0,
      locks: locks.get(member.id) ?? 0,
      cards: held.rfid ?? 0,
      keys: held.key ?? 0,
      fingerprints: held.fingerprint ?? 0,
    };
    rows.push(USER_LIST_COLUMNS.map((column) => row[column]));
  }
  // The one CSV writer (RFC 4180 quoting, formula cells defused): base/http/csv.ts.
  return csvDocument(USER_LIST_COLUMNS, rows);
}
