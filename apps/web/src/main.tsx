// First: zod must be jitless before any schema is defined (no CSP eval probe; see the module).
import '@latchkey/shared/zod-jitless';
// Then Mantine's styles, ahead of every component's own (CSS modules arrive with the components'
// imports, and the build puts all of it in one stylesheet in import order).
import './app/mantine-styles.css';
import '@mantine/notifications/styles.css';
import './app/global.css';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { runBoot } from './app/boot';
import { createBootSteps, type BootState } from './app/boot-steps';
import { AppProvider } from './app/provider';
import { ANALYTICS_FAILURE, isLocalOrPrivateHost } from './lib/session-recorder';

const state: BootState = { router: null };

void runBoot(createBootSteps(state), () => {
  const root = document.getElementById('root');
  if (!root || !state.router) throw new Error('Nothing to mount: #root or the router is missing');
  const app = (
    <StrictMode>
      <AppProvider>
        <RouterProvider router={state.router} />
      </AppProvider>
    </StrictMode>
  );
  // As a transition, React renders the first screen in slices and lets the browser in between
  // instead of one long task (Lighthouse counts such tasks as blocking time; the router's own
  // updates are transitions already).
  startTransition(() => createRoot(root).render(app));
}).then((outcome) => {
  // The session recorder (brief §7), after the first screen and never on a local or private host:
  // there its code is not even fetched. A failure only logs (lib/session-recorder.ts).
  if (outcome === 'mounted' && !isLocalOrPrivateHost(window.location.hostname)) {
    import('./app/session-recorder-boot')
      .then(({ startRecorderAfterMount }) => startRecorderAfterMount())
      .catch((cause: unknown) => console.error(ANALYTICS_FAILURE, cause));
  }
});
