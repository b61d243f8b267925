/**
 * Start-up (brief §4): four named steps run in order (http client setup, mixins, navigation,
 * shims), then the app is mounted. A failing step is logged and nothing is mounted; a step may
 * ask for a redirect instead by throwing a BootRedirect.
 */

/** Thrown by a boot step to send the browser elsewhere instead of starting the app. */
export class BootRedirect extends Error {
  override readonly name = 'BootRedirect';

  constructor(readonly url: string) {
    super(`Boot redirect to ${url}`);
  }
}

export interface BootStep {
  name: string;
  run: () => void | Promise<void>;
}

export type BootOutcome = 'mounted' | 'redirected' | 'failed';

export interface BootOptions {
  /** Where the failure message goes; `#root` by default. */
  root?: HTMLElement | null;
  /** Follows a BootRedirect; `window.location.assign` by default. */
  redirect?: (url: string) => void;
}

/** Shows a plain-DOM message when React could not be started (no styles, no components). */
export function renderBootFailure(root: HTMLElement | null): void {
  if (!root) return;
  const box = document.createElement('div');
  box.setAttribute('role', 'alert');
  box.style.cssText =
    'font-family:system-ui,sans-serif;max-width:32rem;margin:20vh auto;padding:0 1.5rem;text-align:center;color:#222222';
  const title = document.createElement('h1');
  title.textContent = 'Latchkey could not start';
  title.style.cssText = 'font-size:1.5rem;margin:0 0 .5rem';
  const hint = document.createElement('p');
  hint.textContent = 'Reload the page to try again. If this keeps happening, try another browser.';
  hint.style.cssText = 'margin:0;color:#555';
  box.append(title, hint);
  root.replaceChildren(box);
}

/** Runs the steps in order, then `mount`. */
export async function runBoot(
  steps: readonly BootStep[],
  mount: () => void | Promise<void>,
  options: BootOptions = {},
): Promise<BootOutcome> {
  const root = options.root === undefined ? document.getElementById('root') : options.root;
  const redirect = options.redirect ?? ((url: string) => window.location.assign(url));
  let current = 'mount';
  try {
    for (const step of steps) {
      current = step.name;
      await step.run();
    }
    current = 'mount';
    await mount();
    return 'mounted';
  } catch (error) {
    if (error instanceof BootRedirect) {
      redirect(error.url);
      return 'redirected';
    }
    console.error(`Latchkey boot step "${current}" failed`, error);
    renderBootFailure(root);
    return 'failed';
  }
}
