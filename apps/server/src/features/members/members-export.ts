import { USER_LIST_COLUMNS } from '@latchkey/shared';
import type { Database } from '../../db/database';
import { toIso } from '../../db/mappers';
import { countLocksPerUser } from '../access/access.repository';
import { countCredentialsPerUser } from '../credentials/credentials.repository';
import { findMembers } from '../../base/tenancy/memberships.repository';

/**
 * One CSV cell (RFC 4180 quoting). A cell that a spreadsheet would run as a formula (=, +, -, @, tab,
 * carriage return first) gets a leading apostrophe, so an exported name cannot execute.
 */
function csvCell(value: string | number | boolean): string {
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** GET portal/user/list: every person of the portal with a summary of their access, as CSV. */
export async function exportMembersCsv(db: Database, portalId: string): Promise<string> {
  const [members, locks, credentials] = await Promise.all([
    findMembers(db, portalId),
    countLocksPerUser(db, portalId),
    countCredentialsPerUser(db, portalId),
  ]);
  const lines = [USER_LIST_COLUMNS.join(',')];
  for (const member of members.sort((a, b) => (a.email < b.email ? -1 : 1))) {
    const held = credentials.get(member.id) ?? {};
    const row: Record<(typeof USER_LIST_COLUMNS)[number], string | number | boolean> = {
      email: member.email,
      firstName: member.first_name,
      lastName: member.last_name,
      role: member.role,
      status: member.status,
      joinedAt: toIso(member.created_at),
      hasAccessCode: (held.code ?? 0) > 0,
      locks: locks.get(member.id) ?? 0,
      cards: held.rfid ?? 0,
      keys: held.key ?? 0,
      fingerprints: held.fingerprint ?? 0,
    };
    lines.push(USER_LIST_COLUMNS.map((column) => csvCell(row[column])).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}
