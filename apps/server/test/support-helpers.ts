import crypto from 'node:crypto';

/** A multipart/form-data body (fields, then image files named "images"), as a browser's FormData sends it. */
export function multipartBody(
  fields: Record<string, string>,
  images: { bytes: Buffer; type?: string; name?: string; field?: string }[] = [],
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----latchkey${crypto.randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  }
  for (const [index, image] of images.entries()) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${image.field ?? 'images'}"; filename="${image.name ?? `photo-${index}.png`}"\r\nContent-Type: ${image.type ?? 'image/png'}\r\n\r\n`,
      ),
      image.bytes,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(parts),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}
