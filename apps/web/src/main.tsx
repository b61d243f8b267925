import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { runBoot } from './app/boot';
import { createBootSteps, type BootState } from './app/boot-steps';
import { AppProvider } from './app/provider';

const state: BootState = { router: null };

void runBoot(createBootSteps(state), () => {
  const root = document.getElementById('root');
  if (!root || !state.router) throw new Error('Nothing to mount: #root or the router is missing');
  createRoot(root).render(
    <StrictMode>
      <AppProvider>
        <RouterProvider router={state.router} />
      </AppProvider>
    </StrictMode>,
  );
});
