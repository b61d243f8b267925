import { z } from 'zod';

/**
 * GET about/webConfig (no sign-in): what the web app needs from the deployment before it knows who
 * is there. The session recorder (brief §7) is loaded from `sessionRecorderUrl` outside local and
 * private-network hosts; null (the default) loads none.
 */
export const clientConfigSchema = z.object({
  sessionRecorderUrl: z.string().nullable(),
});
export type ClientConfig = z.infer<typeof clientConfigSchema>;
