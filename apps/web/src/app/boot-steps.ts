import { LOCALE, NOTIFICATION_TIMEOUT_MS } from '@latchkey/shared';
import { notifications } from '@mantine/notifications';
import { paths } from '@/config/paths';
import { installErrorReporting } from '@/features/client-errors/api/report-client-error';
import { api } from '@/lib/api-client';
import { navigateTo, setNavigator } from '@/lib/navigation';
import { queryClient } from '@/lib/query-client';
import type { BootStep } from './boot';
import { createAppRouter, type AppRouter } from './router';

/** What the steps build for the mount. */
export interface BootState {
  router: AppRouter | null;
}

/** http client setup: where the API is and what a lost session or refused portal does. */
function setupHttpClient(): void {
  api.configure({
    onUnauthorized: () => {
      queryClient.clear();
      navigateTo(paths.root.href());
    },
    onPortalOverrideDenied: () => {
      notifications.show({
        color: 'yellow',
        title: 'Back in your own portal',
        message: 'You can no longer act in the portal you had selected.',
        autoClose: NOTIFICATION_TIMEOUT_MS,
      });
      void queryClient.invalidateQueries();
    },
  });
  // Uncaught errors and unhandled rejections are reported to platform staff (issue 21, `error`).
  installErrorReporting();
}

/**
 * mixins: dates and numbers are formatted with the browser's Intl in the product's locale
 * (lib/format.ts), which needs nothing loaded; the page declares that language. (A date library
 * used to be extended here although no screen used it: 20 KB of every first load.)
 */
function setupMixins(): void {
  document.documentElement.lang = LOCALE;
}

/** shims: what the app needs from the browser; a missing secure random source is fatal. */
function applyShims(): void {
  const missing: string[] = [];
  if (typeof globalThis.crypto?.getRandomValues !== 'function') missing.push('crypto.getRandomValues');
  if (typeof globalThis.fetch !== 'function') missing.push('fetch');
  if (typeof globalThis.TextDecoder !== 'function') missing.push('TextDecoder');
  if (missing.length > 0) throw new Error(`This browser lacks ${missing.join(', ')}`);

  // randomUUID exists only on secure origins; a lock on a LAN address may be opened over http.
  if (typeof globalThis.crypto.randomUUID !== 'function') {
    Object.defineProperty(globalThis.crypto, 'randomUUID', {
      configurable: true,
      value: () => {
        const b = globalThis.crypto.getRandomValues(new Uint8Array(16));
        b[6] = (b[6]! & 0x0f) | 0x40;
        b[8] = (b[8]! & 0x3f) | 0x80;
        const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
        return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
      },
    });
  }
}

/** The four start-up steps of the brief §4, in their order. */
export function createBootSteps(state: BootState): BootStep[] {
  return [
    { name: 'http client setup', run: setupHttpClient },
    { name: 'mixins', run: setupMixins },
    {
      name: 'navigation',
      run: () => {
        const router = createAppRouter();
        setNavigator((path) => void router.navigate(path));
        state.router = router;
      },
    },
    { name: 'shims', run: applyShims },
  ];
}
