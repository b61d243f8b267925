import type { LockStayGuest } from '@latchkey/shared';
import type { Database } from '../../db/database';
import { nowIso, toIso } from '../../db/mappers';
import { AppError } from '../../base/http/errors';
import { findDevice } from '../devices/devices.repository';

/**
 * The guests whose stays open a lock now or later (its Guests tab): a stay's guest access whose
 * code or QR entry is bound to the lock and has not ended, with the stay's dates and listing.
 * Everything is read within the portal, so another portal's lock is a 404 and its stays never show.
 */
export async function listLockStayGuests(
  db: Database,
  portalId: string,
  deviceId: string,
): Promise<LockStayGuest[]> {
  if (!(await findDevice(db, portalId, deviceId))) throw AppError.notFound('Lock');
  const rows = await db
    .selectFrom('stay_access as sa')
    .innerJoin('stays as s', (j) =>
      j.onRef('s.id', '=', 'sa.stay_id').onRef('s.portal_id', '=', 'sa.portal_id'),
    )
    .innerJoin('listings as l', (j) =>
      j.onRef('l.id', '=', 's.listing_id').onRef('l.portal_id', '=', 's.portal_id'),
    )
    .select([
      'sa.stay_id',
      'sa.credential_id',
      'sa.qr_credential_id',
      'sa.valid_from',
      'sa.valid_until',
      's.listing_id',
      's.guest_name',
      's.start_date',
      's.end_date',
      'l.title',
    ])
    .where('sa.portal_id', '=', portalId)
    .where('sa.holder', '=', 'guest')
    .where('sa.removed_at', 'is', null)
    .where('sa.valid_until', '>', nowIso())
    .where('s.state', '=', 'approved')
    .orderBy('sa.valid_from')
    .execute();
  if (rows.length === 0) return [];
  const credentialIds = rows.flatMap((row) => [
    row.credential_id,
    ...(row.qr_credential_id ? [row.qr_credential_id] : []),
  ]);
  const bound = new Set(
    (
      await db
        .selectFrom('credential_devices')
        .select('credential_id')
        .where('portal_id', '=', portalId)
        .where('device_id', '=', deviceId)
        .where('credential_id', 'in', credentialIds)
        .execute()
    ).map((row) => row.credential_id),
  );
  return rows.flatMap((row) => {
    const credentials: LockStayGuest['credentials'] = [];
    if (bound.has(row.credential_id)) credentials.push('code');
    if (row.qr_credential_id && bound.has(row.qr_credential_id)) credentials.push('qr');
    if (credentials.length === 0) return [];
    return [
      {
        stayId: row.stay_id,
        listingId: row.listing_id,
        listingTitle: row.title,
        guestName: row.guest_name,
        startDate: row.start_date,
        endDate: row.end_date,
        validFrom: toIso(row.valid_from),
        validUntil: toIso(row.valid_until),
        credentials,
      },
    ];
  });
}
