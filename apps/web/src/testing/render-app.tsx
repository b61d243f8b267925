import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { AppProvider } from '@/app/provider';
import { createRoutes } from '@/app/router';
import { api } from '@/lib/api-client';
import { navigateTo, setNavigator } from '@/lib/navigation';
import { queryClient } from '@/lib/query-client';
import { createFetchMock, json, type MockHandler } from './fetch-mock';
import { sealKeyAnswer } from './fixtures';

/**
 * Renders the real route table at `path` with the app's providers, the API answered by `apiRoutes`.
 * The HTTP client's 401 handling navigates inside this router, as boot wires it in the app.
 */
export function renderApp(path: string, apiRoutes: Record<string, MockHandler> = {}) {
  const mock = createFetchMock({ 'GET auth/sealKey': () => json(sealKeyAnswer()), ...apiRoutes });
  // The router starts its loaders as soon as it exists: the client must be ready before.
  api.configure({
    fetch: mock.fetch,
    cacheMs: 0,
    onUnauthorized: () => {
      queryClient.clear();
      navigateTo('/');
    },
    onPortalOverrideDenied: () => {},
  });
  const router = createMemoryRouter(createRoutes(), { initialEntries: [path] });
  setNavigator((to) => void router.navigate(to));
  const view = render(
    <AppProvider env="test">
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { ...view, router, ...mock };
}
