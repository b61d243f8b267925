import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/** Where the build writes each signed-in area's page (apps/web/src/app/area-frames.ts). */
const FRAMES_DIR = 'frames';

/**
 * Serves the built web app from `webDist`, and its index.html for any other non-API path so
 * the client-side router (history mode) can show the screen, or its own not-found page. An
 * address in a signed-in area (/app/…, /user/…) gets the area's page instead when the build wrote
 * one: index.html naming the area's frame chunks as modulepreload links, so they download with
 * the entry script rather than after it ran.
 * Returns false when there is no build (API-only, e.g. in tests or under `npm run dev`).
 */
export async function registerSpa(
  app: FastifyInstance,
  webDist: string,
  apiPrefix: string,
): Promise<boolean> {
  if (!fs.existsSync(path.join(webDist, 'index.html'))) return false;
  const framesDir = path.join(webDist, FRAMES_DIR);
  const framedAreas = new Set(
    fs.existsSync(framesDir)
      ? fs
          .readdirSync(framesDir)
          .filter((file) => file.endsWith('.html'))
          .map((file) => file.slice(0, -'.html'.length))
      : [],
  );
  await app.register(fastifyStatic, {
    root: webDist,
    wildcard: false,
    index: false,
    // The build writes .br and .gz beside each file (apps/web/vite.config.ts): sent as they are,
    // by what the browser accepts; @fastify/compress leaves an encoded answer alone.
    preCompressed: true,
    setHeaders: (res, filePath) => {
      // Vite names built assets by content hash: they never change under one name.
      const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
      res.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  // Every built file got its own route above; any other path is a screen of the client router,
  // except API paths and missing assets (a stale hashed name), which stay 404.
  app.get('/*', { schema: { hide: true } }, (request, reply) => {
    const url = request.url;
    if (url === apiPrefix || url.startsWith(`${apiPrefix}/`) || url.startsWith('/assets/')) {
      return reply.callNotFound();
    }
    // The first segment of the path: "app" for /app/device/1?tab=sync.
    const area = /^\/([^/?#]+)/.exec(url)?.[1];
    const page = area && framedAreas.has(area) ? `${FRAMES_DIR}/${area}.html` : 'index.html';
    return reply.header('cache-control', 'no-cache').sendFile(page);
  });
  return true;
}
