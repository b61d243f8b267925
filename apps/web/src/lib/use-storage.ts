import { useSyncExternalStore } from 'react';
import { storage } from './storage';

/**
 * A stored value that re-renders its component when it changes. `read` must return a
 * primitive or an otherwise stable value (strings, booleans, null).
 */
export function useStoredValue<T extends string | number | boolean | null>(read: () => T): T {
  return useSyncExternalStore(storage.subscribe, read, read);
}
