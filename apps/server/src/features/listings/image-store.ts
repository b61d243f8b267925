import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * Where image bytes live. The database keeps each image's record and its key; the bytes go to a
 * store: a folder under the data folder by default. An S3-compatible store implements the same
 * three calls (PutObject, GetObject, DeleteObject on one bucket), and the rest of the app does not
 * change.
 */
export interface ImageStore {
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  /** The bytes and their type, or null for a key with nothing stored. */
  get(key: string): Promise<{ bytes: Buffer; contentType: string } | null>;
  /** Removes the bytes; a missing key is fine. */
  delete(key: string): Promise<void>;
}

/** Keys are ours (image id and size); anything else could escape the folder. */
const KEY_PATTERN = /^[A-Za-z0-9_-]{1,64}(\/[A-Za-z0-9_-]{1,32})?\.(webp|png|jpg)$/;

const CONTENT_TYPES: Record<string, string> = { webp: 'image/webp', png: 'image/png', jpg: 'image/jpeg' };

/** Images as files in a folder (`DATA_DIR/images` by default), written atomically. */
export class DiskImageStore implements ImageStore {
  constructor(private readonly root: string) {}

  private pathOf(key: string): string {
    if (!KEY_PATTERN.test(key)) throw new Error(`not an image key: ${key}`);
    return path.join(this.root, ...key.split('/'));
  }

  async put(key: string, bytes: Buffer): Promise<void> {
    const file = this.pathOf(key);
    await fs.mkdir(path.dirname(file), { recursive: true });
    // Written beside and renamed: a reader never sees half an image.
    const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
    await fs.writeFile(temporary, bytes);
    await fs.rename(temporary, file);
  }

  async get(key: string): Promise<{ bytes: Buffer; contentType: string } | null> {
    try {
      const bytes = await fs.readFile(this.pathOf(key));
      return { bytes, contentType: CONTENT_TYPES[key.slice(key.lastIndexOf('.') + 1)]! };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await fs.rm(this.pathOf(key), { force: true });
  }
}
