/**
 * The frame (layout) each signed-in area's screens open in, by the area's first address segment:
 * /app/… and /sync/… open in the admin frame, /user/… in the basic user's. The build
 * (vite.config.ts, `areaFramePages`) writes frames/<area>.html, index.html with the frame's chunks
 * named as modulepreload links, and the server sends it for addresses in that area
 * (apps/server/src/base/http/spa.ts). The frame then downloads with the app's own script instead
 * of after that script has run: a round trip and the script's start-up earlier on a first load
 * (docs/decisions.md, "First load"). router.test.tsx holds this table to the router's.
 */
export const AREA_FRAMES = {
  app: 'src/app/layouts/app-layout.tsx',
  sync: 'src/app/layouts/app-layout.tsx',
  user: 'src/app/layouts/user-layout.tsx',
} as const;

export type FramedArea = keyof typeof AREA_FRAMES;
