import '@testing-library/jest-dom/vitest';
import { notifications } from '@mantine/notifications';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { api } from '@/lib/api-client';
import { setNavigator } from '@/lib/navigation';
import { queryClient } from '@/lib/query-client';
import { FakeWebSocket } from './fake-websocket';

// Screens load on demand; on a busy machine the first import of one can take a while.
configure({ asyncUtilTimeout: 5000 });

// jsdom lacks the layout APIs Mantine uses; these stand-ins are enough for rendering and events.
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  configurable: true,
  value: (query: string): MediaQueryList => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  }),
});

class ResizeObserverStub {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}
Object.defineProperty(window, 'ResizeObserver', {
  writable: true,
  configurable: true,
  value: ResizeObserverStub,
});
// Mantine's autosizing Textarea listens for web fonts loading.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', {
    configurable: true,
    value: Object.assign(new EventTarget(), { ready: Promise.resolve() }),
  });
}
// The /app and /user shells open the live channel; no test may reach for a real server.
Object.defineProperty(window, 'WebSocket', { writable: true, configurable: true, value: FakeWebSocket });
Object.defineProperty(window, 'scrollTo', { writable: true, configurable: true, value: () => {} });
Element.prototype.scrollIntoView ??= () => {};

// With one module graph per worker (vitest.config.ts, isolate: false), whatever a module keeps
// outlives its test file: each store a screen can fill is emptied after every test.
afterEach(() => {
  cleanup();
  // The notifications store is Mantine's own, module-wide: a toast raised by one test would be
  // an extra role="alert" in the next.
  notifications.clean();
  window.localStorage.clear();
  queryClient.clear();
  api.clearCache();
  setNavigator(null);
  FakeWebSocket.reset();
});
