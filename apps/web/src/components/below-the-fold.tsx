import { useDeferredValue, type ReactNode } from 'react';

/**
 * Sections a person scrolls to, rendered just after what is above them has shown. A screen's first
 * render with its data cannot be interrupted (the answer reaches React through the query cache, an
 * external store, which React renders synchronously), and on a slow phone the whole page in that one
 * render held the browser for 100 ms and more. What is inside renders next, in a background render
 * that React splits into slices with the browser free in between (`useDeferredValue` with an
 * initial value). Nothing shows in its place for those few frames, so nothing above it moves. Never
 * for what the person came to see: that is what the page should paint first.
 */
export function BelowTheFold({ children }: { children: ReactNode }) {
  const rendered = useDeferredValue(true, false);
  return rendered ? children : null;
}
