import {
  API_BASE_PATH,
  type AccessListEntry,
  type RentalImage,
  personName as sharedPersonName,
} from '@latchkey/shared';
import { toIso } from '../../db/mappers';
import type { ListingAccessListRow, UserImageRow } from '../../db/schema';

/**
 * Where an image is served: public (an <img> sends no Authorization header), by its random id under
 * its portal's id, so the read is scoped like every other (listings.routes.ts).
 */
export function imageUrl(portalId: string, imageId: string, size: 'large' | 'thumb'): string {
  return `${API_BASE_PATH}/image/${portalId}/${imageId}/${size}`;
}

export function presentImages(portalId: string, rows: readonly UserImageRow[]): RentalImage[] {
  return rows.map((row) => ({
    _id: row.id,
    alt: row.alt,
    position: row.position,
    width: row.width,
    height: row.height,
    url: imageUrl(portalId, row.id, 'large'),
    thumbUrl: imageUrl(portalId, row.id, 'thumb'),
  }));
}

/** A person as a listing shows them: their name, else their email address. */
export const personName = (m: { first_name: string; last_name: string; email: string }) =>
  sharedPersonName(m.first_name, m.last_name, m.email);

export function presentAccessListEntry(row: ListingAccessListRow): AccessListEntry {
  return {
    _id: row.id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    anchor: row.anchor,
    startOffset: row.start_offset,
    endOffset: row.end_offset,
    createdAt: toIso(row.created_at),
  };
}
