import type { QueryClient } from '@tanstack/react-query';
import type { Params } from 'react-router';

/**
 * What a screen's prefetch module exports: it starts the reads the screen shows first, for the
 * address being opened, and returns at once. The route's loader (app/router.tsx, `startReads`)
 * calls it once the session allows, while the screen's code still loads; the screen then finds
 * the answers in the query cache under the same keys.
 */
export type ScreenReads = (client: QueryClient, address: { params: Params; url: URL }) => void;
