import { paths } from '@/config/paths';

/** Paths a `redirect` parameter must never send a person back to (they would loop). */
const LOOP_PATHS = new Set<string>([
  paths.root.pattern,
  paths.auth.login.pattern,
  paths.auth.logout.pattern,
  paths.auth.landing.pattern,
  paths.signup.pattern,
]);

/**
 * The same-origin path in a `redirect` query parameter, or null when it is missing, points to
 * another origin (`//evil.example`, `https://…`, `/\evil`), or would loop back to sign-in.
 */
export function safeRedirectPath(value: string | null | undefined, origin: string = window.location.origin) {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  let url: URL;
  try {
    url = new URL(value, origin);
  } catch {
    return null;
  }
  if (url.origin !== origin || LOOP_PATHS.has(url.pathname)) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The root path with a `redirect` back to `path` (used when sign-in is required). */
export function signInPath(path: string): string {
  const target = safeRedirectPath(path);
  return paths.root.href({ redirect: target ?? undefined });
}

/** The landing path, carrying a redirect target along when there is one. */
export function landingPath(target: string | null): string {
  return paths.auth.landing.href({ redirect: target ?? undefined });
}
