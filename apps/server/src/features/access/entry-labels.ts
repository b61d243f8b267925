import { formatCalendarRange } from '@latchkey/shared';
import type { Database } from '../../db/database';
import type { CredentialRow } from '../../db/schema';
import { inSlices } from './credential-sets.repository';

/** The stay a guest credential belongs to (features/stays makes them; read here to name them). */
export interface StayOfCredential {
  stayId: string;
  listingId: string;
  guestName: string;
  startDate: string;
  endDate: string;
  /** The stay's guest, or an access-list holder around it (the cleaner). */
  holder: 'guest' | 'access_list';
  /** The holder's name: the guest's, or the access list entry's ("Cleaning crew"). */
  name: string;
}

/** The stays behind these credentials (code or QR entry), by credential id. */
export async function listStaysOfCredentials(
  db: Database,
  portalId: string,
  credentialIds: readonly string[],
): Promise<Map<string, StayOfCredential>> {
  const found = new Map<string, StayOfCredential>();
  if (credentialIds.length === 0) return found;
  const rows = await inSlices(credentialIds, (slice) =>
    db
      .selectFrom('stay_access as sa')
      .innerJoin('stays as s', (j) =>
        j.onRef('s.id', '=', 'sa.stay_id').onRef('s.portal_id', '=', 'sa.portal_id'),
      )
      .select([
        'sa.credential_id',
        'sa.qr_credential_id',
        'sa.holder',
        'sa.name',
        's.id as stay_id',
        's.listing_id',
        's.guest_name',
        's.start_date',
        's.end_date',
      ])
      .where('sa.portal_id', '=', portalId)
      .where((eb) => eb.or([eb('sa.credential_id', 'in', slice), eb('sa.qr_credential_id', 'in', slice)]))
      .execute(),
  );
  for (const row of rows) {
    const stay: StayOfCredential = {
      stayId: row.stay_id,
      listingId: row.listing_id,
      guestName: row.guest_name,
      startDate: row.start_date,
      endDate: row.end_date,
      holder: row.holder,
      name: row.name,
    };
    found.set(row.credential_id, stay);
    if (row.qr_credential_id) found.set(row.qr_credential_id, stay);
  }
  return found;
}

/**
 * Who a credential without a person is, in words that tell entries apart: a stay's guest or cleaner
 * names the stay and its dates (one stay gives the guest a code and a QR entry, and each stay its
 * cleaner a code), a guest invite its guest, a company code its name. The kind is said beside it.
 */
export function nonPersonLabel(
  credential: Pick<CredentialRow, 'holder_type' | 'name'>,
  context: { inviteName?: string; stay?: StayOfCredential },
): string {
  const { stay } = context;
  if (credential.holder_type === 'master') return 'Master code';
  if (credential.holder_type === 'company') return `Company code: ${credential.name || 'unnamed'}`;
  if (stay) {
    const dates = formatCalendarRange(stay.startDate, stay.endDate);
    return stay.holder === 'guest'
      ? `Stay guest: ${stay.guestName}, ${dates}`
      : `${stay.name}, for ${stay.guestName}'s stay ${dates}`;
  }
  return `Guest: ${context.inviteName ?? credential.name}`;
}

/** Names for these non-person credentials by id (the sync screens), as nonPersonLabel says them. */
export async function nameNonPersonCredentials(
  db: Database,
  portalId: string,
  credentialIds: readonly string[],
): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  if (credentialIds.length === 0) return names;
  const [credentials, stays] = await Promise.all([
    inSlices(credentialIds, (slice) =>
      db
        .selectFrom('credentials as c')
        .leftJoin('device_invites as i', (j) =>
          j.onRef('i.credential_id', '=', 'c.id').onRef('i.portal_id', '=', 'c.portal_id'),
        )
        .select(['c.id', 'c.holder_type', 'c.name', 'i.name as invite_name'])
        .where('c.portal_id', '=', portalId)
        .where('c.id', 'in', slice)
        .execute(),
    ),
    listStaysOfCredentials(db, portalId, credentialIds),
  ]);
  for (const credential of credentials) {
    names.set(
      credential.id,
      nonPersonLabel(credential, {
        inviteName: credential.invite_name ?? undefined,
        stay: stays.get(credential.id),
      }),
    );
  }
  return names;
}
