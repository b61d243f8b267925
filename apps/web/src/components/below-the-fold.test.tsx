import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { waitFor } from '@testing-library/react';
import { BelowTheFold } from './below-the-fold';

// React's own scheduler, not act(): act() would run the background render at once and hide the
// order this component exists for.
let previousActEnvironment: unknown;
beforeEach(() => {
  previousActEnvironment = (globalThis as { IS_REACT_ACT_ENVIRONMENT?: unknown }).IS_REACT_ACT_ENVIRONMENT;
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: unknown }).IS_REACT_ACT_ENVIRONMENT = false;
});
afterEach(() => {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: unknown }).IS_REACT_ACT_ENVIRONMENT = previousActEnvironment;
});

describe('BelowTheFold', () => {
  it('shows what is above it in the first render, and its own content in the render after', async () => {
    const container = document.createElement('div');
    document.body.append(container);
    const root = createRoot(container);
    // A synchronous render, as when a query's answer arrives.
    flushSync(() =>
      root.render(
        <main>
          <h1>Counts</h1>
          <BelowTheFold>
            <section>Latest members</section>
          </BelowTheFold>
        </main>,
      ),
    );
    expect(container.textContent).toBe('Counts');
    await waitFor(() => expect(container.textContent).toBe('CountsLatest members'));

    // Once there, a later render of the page keeps it (no second wait, no flash).
    flushSync(() =>
      root.render(
        <main>
          <h1>Counts again</h1>
          <BelowTheFold>
            <section>Latest members</section>
          </BelowTheFold>
        </main>,
      ),
    );
    expect(container.textContent).toBe('Counts againLatest members');
    root.unmount();
    container.remove();
  });
});
