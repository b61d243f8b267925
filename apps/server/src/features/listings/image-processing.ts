import type { OutputInfo } from 'sharp';
import { AppError } from '../../base/http/errors';
import type { ImageStore } from './image-store';

/** The largest upload taken, in bytes (a phone photo is 3–8 MB). */
export const IMAGE_MAX_BYTES = 12 * 1024 * 1024;
/** Pixels an image may decode to: refuses decompression bombs (a small file, a huge bitmap). */
const MAX_INPUT_PIXELS = 50_000_000;
/** Types taken, by what the bytes are (never by the name or the Content-Type the client sent). */
const ACCEPTED = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif']);

export const IMAGE_SIZES = { large: 1600, thumb: 480 } as const;
export type ImageSize = keyof typeof IMAGE_SIZES;

export function imageKey(imageId: string, size: ImageSize): string {
  return `${imageId}/${size}.webp`;
}

export interface StoredImage {
  width: number;
  height: number;
  bytes: number;
}

function unsupported(message: string): AppError {
  return new AppError('unsupported_media_type', message, 415);
}

/**
 * Checks an upload by its bytes (file-type), then stores it at each size as WebP (sharp): turned
 * upright by its EXIF orientation, never enlarged, and without its metadata, so a phone photo's GPS
 * position and camera details never reach a public page.
 */
export async function storeImage(store: ImageStore, imageId: string, upload: Buffer): Promise<StoredImage> {
  if (upload.length === 0) throw AppError.badRequest('The image is empty');
  if (upload.length > IMAGE_MAX_BYTES) {
    throw new AppError(
      'payload_too_large',
      `An image may be at most ${IMAGE_MAX_BYTES / 1024 / 1024} MB`,
      413,
    );
  }
  // Loaded on the first upload: sharp and file-type cost about 0.2 s of CPU at every start.
  const [{ fileTypeFromBuffer }, { default: sharp }] = await Promise.all([
    import('file-type'),
    import('sharp'),
  ]);
  const type = await fileTypeFromBuffer(upload);
  if (!type || !ACCEPTED.has(type.mime)) {
    throw unsupported('Only JPEG, PNG, WebP, GIF and AVIF images are taken');
  }
  let large: { data: Buffer; info: OutputInfo };
  let thumb: Buffer;
  try {
    const source = () => sharp(upload, { limitInputPixels: MAX_INPUT_PIXELS, animated: false }).rotate();
    large = await source()
      .resize({
        width: IMAGE_SIZES.large,
        height: IMAGE_SIZES.large,
        fit: 'inside',
        withoutEnlargement: true,
      })
      .webp({ quality: 82 })
      .toBuffer({ resolveWithObject: true });
    thumb = await source()
      .resize({
        width: IMAGE_SIZES.thumb,
        height: IMAGE_SIZES.thumb,
        fit: 'inside',
        withoutEnlargement: true,
      })
      .webp({ quality: 78 })
      .toBuffer();
  } catch {
    // A header that names an image type over bytes that do not decode, or one too large.
    throw unsupported('The image could not be read (damaged, or larger than 50 megapixels)');
  }
  await store.put(imageKey(imageId, 'large'), large.data, 'image/webp');
  await store.put(imageKey(imageId, 'thumb'), thumb, 'image/webp');
  return { width: large.info.width, height: large.info.height, bytes: large.data.length };
}

/** Removes every size of an image. */
export async function removeImage(store: ImageStore, imageId: string): Promise<void> {
  await Promise.all(
    Object.keys(IMAGE_SIZES).map((size) => store.delete(imageKey(imageId, size as ImageSize))),
  );
}
