import type { HeldCredentialRow } from './credentials.repository';

/** The person holding a credential, as lists show them (name falls back to the email). */
export function holderOf(row: HeldCredentialRow) {
  if (!row.user_id || !row.holder_email) return null;
  const name = [row.holder_first_name, row.holder_last_name].filter(Boolean).join(' ');
  return { _id: row.user_id, email: row.holder_email, name: name || row.holder_email };
}
