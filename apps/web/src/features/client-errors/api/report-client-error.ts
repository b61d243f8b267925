import { CLIENT_ERROR_LIMITS, topStackFrame, type ClientErrorReport } from '@latchkey/shared';
import { api, isApiError } from '@/lib/api-client';

/** POST clientErrors: one uncaught error of this page (anyone may send it; the server limits per address). */
export async function reportClientError(report: ClientErrorReport): Promise<void> {
  await api.post<unknown>('clientErrors', report);
}

/** What this page load has reported already: each error once (message + top frame). */
const reported = new Set<string>();

const clip = (text: string, max: number) => (text.length > max ? text.slice(0, max) : text);
/** Control characters (other than line breaks and tabs in a stack) are refused by the server. */
const clean = (text: string, lines = false) =>
  [...text]
    .map((char) => {
      const code = char.charCodeAt(0);
      const control = code < 32 || code === 127;
      return control && !(lines && (char === '\n' || char === '\t')) ? ' ' : char;
    })
    .join('');

/**
 * Reports an error seen by the page (window.onerror, an unhandled rejection, a screen's error
 * boundary), once per fingerprint per page load; never throws, and reports nothing about its own
 * failure (a broken network must not loop).
 */
export function reportError(error: unknown, build = pageBuild()): void {
  // A refused or failed API call is the server's to log (and a lost network would only fail again).
  if (isApiError(error)) return;
  try {
    const message = clip(
      clean(error instanceof Error ? `${error.name}: ${error.message}` : String(error)).trim() ||
        'Unknown error',
      CLIENT_ERROR_LIMITS.message,
    );
    const stack = clip(
      clean(error instanceof Error ? (error.stack ?? '') : '', true),
      CLIENT_ERROR_LIMITS.stack,
    );
    const key = `${message}\n${topStackFrame(stack)}`;
    if (reported.has(key)) return;
    reported.add(key);
    void reportClientError({
      message,
      stack,
      route: clip(clean(window.location.pathname), CLIENT_ERROR_LIMITS.route),
      build: clip(clean(build), CLIENT_ERROR_LIMITS.build),
      userAgent: clip(clean(navigator.userAgent), CLIENT_ERROR_LIMITS.userAgent),
    }).catch(() => undefined);
  } catch {
    // Reporting is best effort.
  }
}

/**
 * The build this page runs: the entry script's file name carries its content hash (`index-<hash>.js`),
 * so a new build is a new fingerprint; `dev` under the dev server.
 */
export function pageBuild(): string {
  const entry = document.querySelector<HTMLScriptElement>('script[type="module"][src]');
  const name = entry?.src.split('/').pop() ?? '';
  return /^index-[\w-]+\.js$/.test(name) ? name.slice('index-'.length, -'.js'.length) : 'dev';
}

/** Listens for the page's uncaught errors and unhandled rejections (boot calls it once). */
export function installErrorReporting(build = pageBuild()): void {
  window.addEventListener('error', (event) => reportError(event.error ?? event.message, build));
  window.addEventListener('unhandledrejection', (event) => reportError(event.reason, build));
}
