// Images of a listing and of a lock's arrival instructions: their bytes in the image store, their
// records (alt text, order) in the database. Apart from the listing itself (listings.service.ts)
// because they have two kinds of owner and the store besides the database; they need nothing of
// a listing's rules (the caller checks the owner).
import crypto from 'node:crypto';
import type { RentalImage, RentalImageUpdate } from '@latchkey/shared';
import type { Database } from '../../db/database';
import { nowIso } from '../../db/mappers';
import type { ChangeContext } from '../../base/http/access';
import { AppError } from '../../base/http/errors';
import { recordChange } from '../../base/audit/audit.repository';
import { removeImage, storeImage, type ImageSize, imageKey } from './image-processing';
import type { ImageStore } from './image-store';
import {
  countImagesOf,
  deleteImageRow,
  findImage,
  imageOwnerLive,
  insertImage,
  listImagesOf,
  updateImage,
  type ImageOwnerType,
} from './listings.repository';
import { presentImages } from './listings.presenter';

/** Images per listing (and per lock's arrival instructions). */
export const MAX_IMAGES = 20;

/** Stores an uploaded image for a listing or a lock's arrival instructions, at the end of their order. */
export async function addImage(
  db: Database,
  store: ImageStore,
  context: ChangeContext,
  owner: { type: ImageOwnerType; id: string; label: string; deviceId?: string },
  upload: Buffer,
  alt: string,
): Promise<RentalImage> {
  if ((await countImagesOf(db, context.portalId, owner.type, owner.id)) >= MAX_IMAGES) {
    throw AppError.conflict(`At most ${MAX_IMAGES} images`);
  }
  const id = crypto.randomUUID();
  // The bytes go to the store first: a failed upload leaves no record pointing at nothing.
  const stored = await storeImage(store, id, upload);
  try {
    return await db.transaction().execute(async (trx) => {
      const count = await countImagesOf(trx, context.portalId, owner.type, owner.id);
      await insertImage(trx, {
        id,
        portal_id: context.portalId,
        owner_type: owner.type,
        owner_id: owner.id,
        storage_key: imageKey(id, 'large'),
        width: stored.width,
        height: stored.height,
        bytes: stored.bytes,
        alt,
        position: count,
        created_at: nowIso(),
      });
      await recordChange(trx, context, {
        action: `${owner.type}.image.add`,
        entityType: owner.type === 'listing' ? 'listing' : 'device',
        entityId: owner.id,
        deviceId: owner.deviceId ?? null,
        after: { [owner.type]: owner.label, imageId: id, alt, width: stored.width, height: stored.height },
      });
      return presentImages(context.portalId, [(await findImage(trx, context.portalId, id))!])[0]!;
    });
  } catch (error) {
    await removeImage(store, id);
    throw error;
  }
}

async function requireImageOf(
  db: Database,
  portalId: string,
  ownerType: ImageOwnerType,
  ownerId: string,
  imageId: string,
) {
  const image = await findImage(db, portalId, imageId);
  if (!image || image.owner_type !== ownerType || image.owner_id !== ownerId)
    throw AppError.notFound('Image');
  return image;
}

/** Alt text and position; moving an image shifts the others so positions stay 0…n-1. */
export async function editImage(
  db: Database,
  context: ChangeContext,
  owner: { type: ImageOwnerType; id: string },
  imageId: string,
  patch: RentalImageUpdate,
): Promise<RentalImage> {
  return db.transaction().execute(async (trx) => {
    const image = await requireImageOf(trx, context.portalId, owner.type, owner.id, imageId);
    if (patch.alt !== undefined) await updateImage(trx, context.portalId, imageId, { alt: patch.alt });
    if (patch.position !== undefined) {
      const all = await listImagesOf(trx, context.portalId, owner.type, [owner.id]);
      const others = all.filter((i) => i.id !== imageId);
      const at = Math.min(patch.position, others.length);
      const ordered = [...others.slice(0, at), image, ...others.slice(at)];
      for (const [position, item] of ordered.entries()) {
        if (item.position !== position) await updateImage(trx, context.portalId, item.id, { position });
      }
    }
    await recordChange(trx, context, {
      action: `${owner.type}.image.update`,
      entityType: owner.type === 'listing' ? 'listing' : 'device',
      entityId: owner.id,
      before: { imageId, alt: image.alt, position: image.position },
      after: { imageId, ...patch },
    });
    return presentImages(context.portalId, [(await findImage(trx, context.portalId, imageId))!])[0]!;
  });
}

export async function deleteImage(
  db: Database,
  store: ImageStore,
  context: ChangeContext,
  owner: { type: ImageOwnerType; id: string },
  imageId: string,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const image = await requireImageOf(trx, context.portalId, owner.type, owner.id, imageId);
    await deleteImageRow(trx, context.portalId, imageId);
    const rest = await listImagesOf(trx, context.portalId, owner.type, [owner.id]);
    for (const [position, item] of rest.entries()) {
      if (item.position !== position) await updateImage(trx, context.portalId, item.id, { position });
    }
    await recordChange(trx, context, {
      action: `${owner.type}.image.delete`,
      entityType: owner.type === 'listing' ? 'listing' : 'device',
      entityId: owner.id,
      before: { imageId, alt: image.alt },
    });
  });
  // After the commit: a rolled-back delete keeps its bytes.
  await removeImage(store, imageId);
}

/** GET image/{portalId}/{imageId}/{size}: an image's bytes, for anyone holding its address. */
export async function readImage(
  db: Database,
  store: ImageStore,
  portalId: string,
  imageId: string,
  size: ImageSize,
) {
  const image = await findImage(db, portalId, imageId);
  // A deleted listing's pictures (and its locks' arrival pictures) are no longer anyone's to see.
  if (!image || !(await imageOwnerLive(db, image))) throw AppError.notFound('Image');
  const stored = await store.get(imageKey(imageId, size));
  if (!stored) throw AppError.notFound('Image');
  return stored;
}
