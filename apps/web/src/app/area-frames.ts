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

/**
 * The screens people most often open first (a bookmark, a link in a mail, the landing after sign-in)
 * whose page names their own chunks too: the screen's, and the module its route's loader imports to
 * start its reads (`startReads` in router.tsx). The build writes frames/screens/<name>.html for each
 * (the area's page plus these links) and frames/screens.json, the addresses the server matches them
 * by; `:name` stands for one segment of the address (an id). Each screen's code and data then arrive
 * beside the app's own script instead of a round trip after it has run. router.test.tsx holds this
 * table to the router's. Every other screen's chunk arrives beside the session call.
 */
export const SCREEN_PAGES = [
  {
    address: '/app/dashboard',
    modules: [
      'src/features/dashboard/components/dashboard-page.tsx',
      'src/features/dashboard/api/prefetch-dashboard.ts',
    ],
  },
  {
    address: '/app/device/:deviceId',
    modules: [
      'src/features/devices/components/device-page.tsx',
      'src/features/devices/api/prefetch-device-page.ts',
    ],
  },
  {
    address: '/app/listing/:listingId',
    modules: [
      'src/features/listings/components/listing-page.tsx',
      'src/features/listings/api/prefetch-listing-page.ts',
    ],
  },
] as const;

/** The file the build writes a screen's page to, under frames/: `/app/device/:deviceId` → screens/app-device-deviceId.html. */
export const screenPageFile = (address: string) =>
  `screens/${address.replace(/^\//, '').replace(/[/:]+/g, '-')}.html`;
