import { redirect, type LoaderFunctionArgs } from 'react-router';
import { paths } from '@/config/paths';
import { isApiError } from '@/lib/api-client';
import { isSignedIn } from '@/lib/auth-token';
import { homePathFor } from '@/lib/authorization';
import { landingPath, safeRedirectPath, signInPath } from '@/lib/safe-redirect';
import { queryClient } from '@/lib/query-client';
import { endSessionLocally, sessionQueryOptions } from '@/lib/session';
import { storage } from '@/lib/storage';

/**
 * Route guards, run as loaders before a screen renders. Role checks happen in the layouts
 * (a person without the role sees a "no access" screen rather than a redirect).
 */

function pathOf(request: Request): string {
  const url = new URL(request.url);
  return `${url.pathname}${url.search}${url.hash}`;
}

/** Layouts that need sign-in: no valid token → root with `?redirect=`; else load the session. */
export async function requireSession({ request }: LoaderFunctionArgs) {
  if (!isSignedIn()) {
    // An expired token is as good as none: forget it and everything tied to it.
    if (storage.getAuthToken()) endSessionLocally();
    throw redirect(signInPath(pathOf(request)));
  }
  try {
    await queryClient.ensureQueryData({ ...sessionQueryOptions(), revalidateIfStale: true });
  } catch (error) {
    if (isApiError(error) && error.status === 401) throw redirect(signInPath(pathOf(request)));
    throw error;
  }
  return null;
}

/** Sign-in and sign-up screens: a signed-in person goes on to the landing instead. */
export function redirectIfSignedIn({ request }: LoaderFunctionArgs) {
  if (!isSignedIn()) {
    // Drop an expired session, so a failed sign-in is not mistaken for a lost session.
    if (storage.getAuthToken()) endSessionLocally();
    return null;
  }
  const target = safeRedirectPath(new URL(request.url).searchParams.get('redirect'));
  throw redirect(landingPath(target));
}

/** /auth/landing: admins (and superAdmins) to the dashboard, basic users to their area. */
export async function landingLoader({ request }: LoaderFunctionArgs) {
  const target = safeRedirectPath(new URL(request.url).searchParams.get('redirect'));
  if (!isSignedIn()) throw redirect(target ? signInPath(target) : paths.root.href());
  const session = await queryClient.ensureQueryData({ ...sessionQueryOptions(), revalidateIfStale: true });
  throw redirect(target ?? homePathFor(session));
}
