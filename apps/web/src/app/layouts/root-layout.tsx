import { VisuallyHidden } from '@mantine/core';
import { useEffect } from 'react';
import { Outlet, useLocation, useMatches, useNavigation } from 'react-router';
import { deepestHandle } from '../route-handle';

/** Every page: title from the route handle, scroll to the top left, a bar while a screen loads. */
export function RootLayout() {
  const { pathname, search } = useLocation();
  const matches = useMatches();
  const navigation = useNavigation();
  const title = deepestHandle(matches, 'title');

  useEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname, search]);

  useEffect(() => {
    document.title = title ? `${title} · Latchkey` : 'Latchkey';
  }, [title]);

  return (
    <>
      {navigation.state !== 'idle' && (
        <div className="route-progress" role="progressbar" aria-label="Loading page" />
      )}
      <VisuallyHidden aria-live="polite" aria-atomic="true">
        {title ?? ''}
      </VisuallyHidden>
      <Outlet />
    </>
  );
}
