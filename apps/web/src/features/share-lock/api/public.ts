import {
  publicListingSchema,
  shareLockActivationMailedSchema,
  reviewInvitationSchema,
  type ReviewInput,
  shareLandingSchema,
  stayRequestReceiptSchema,
  tokenResponseSchema,
  type GuestAccountClaim,
  type ShareLanding,
  type ShareLockActivation,
  type StayRequestInput,
} from '@latchkey/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** The public pages' data: no session involved, keyed apart from the portal's data. */
export const publicKeys = {
  listing: (listingId: string) => ['public', 'listing', listingId] as const,
  landing: (token: string) => ['public', 'landing', token] as const,
  review: (token: string) => ['public', 'review', token] as const,
};

/** GET listing/{id}/public: the request page (no sign-in). */
export function usePublicListing(listingId: string) {
  return useQuery({
    queryKey: publicKeys.listing(listingId),
    queryFn: async () =>
      publicListingSchema.parse(await api.get<unknown>(`listing/${encodeURIComponent(listingId)}/public`)),
  });
}

/** POST device/{listingId}/request (no sign-in). */
export function useRequestStay(listingId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: StayRequestInput) =>
      stayRequestReceiptSchema.parse(
        await api.post<unknown>(`device/${encodeURIComponent(listingId)}/request`, input),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: publicKeys.listing(listingId) }),
  });
}

/** How long before a guest's QR code expires the page asks for a fresh one. */
const QR_RENEW_BEFORE_MS = 20_000;

/**
 * GET device/token/{token} (no sign-in): the landing page. While a QR code is shown it is renewed
 * shortly before it expires; while the access is on its way, the page looks again every 15 s.
 */
export function useShareLanding(token: string) {
  return useQuery({
    queryKey: publicKeys.landing(token),
    queryFn: async (): Promise<ShareLanding> =>
      shareLandingSchema.parse(await api.get<unknown>(`device/token/${encodeURIComponent(token)}`)),
    enabled: token !== '',
    retry: (count, error) => count < 2 && !(error as { status?: number }).status,
    refetchInterval: (query) => {
      const stay = query.state.data?.stay;
      if (stay?.qr) return Math.max(5_000, Date.parse(stay.qr.expiresAt) - Date.now() - QR_RENEW_BEFORE_MS);
      if (stay?.state === 'approved' && stay.accessState !== 'ready') return 15_000;
      return false;
    },
  });
}

/** What keeping a stay in an account answered: a session (the address has an account), or where a link went. */
export type StayActivation =
  { kind: 'session'; token: string } | { kind: 'mailed'; message: string; sentTo: string };

/**
 * POST device/{activation}/sharelock/add, sealed: keep the stay in an account. With an account at
 * the stay's address (its password given) it answers a session; without one the server makes
 * nothing and mails the address a link to choose a password (202), since hosts see the guest link too.
 */
export function useActivateStay(token: string) {
  return useMutation({
    mutationFn: async (input: ShareLockActivation): Promise<StayActivation> => {
      const answer = await api.post<unknown>(`device/${encodeURIComponent(token)}/sharelock/add`, input, {
        sealed: true,
      });
      const session = tokenResponseSchema.safeParse(answer);
      if (session.success) return { kind: 'session', token: session.data.token };
      return { kind: 'mailed', ...shareLockActivationMailedSchema.parse(answer) };
    },
  });
}

/**
 * POST sharelock/account, sealed: from the link mailed to the stay's address, the guest chooses
 * their password; the account is made and keeps the stay. Answers a session.
 */
export function useClaimStayAccount() {
  return useMutation({
    mutationFn: async (input: GuestAccountClaim) =>
      tokenResponseSchema.parse(await api.post<unknown>('sharelock/account', input, { sealed: true })),
  });
}

/** GET review/{token} (no sign-in): the stay to review and whether it may be reviewed now. */
export function useReviewInvitation(token: string) {
  return useQuery({
    queryKey: publicKeys.review(token),
    queryFn: async () =>
      reviewInvitationSchema.parse(await api.get<unknown>(`review/${encodeURIComponent(token)}`)),
    enabled: token !== '',
    retry: (count, error) => count < 2 && !(error as { status?: number }).status,
  });
}

/** POST review/{token}: the guest's review; answers the page as it is now. */
export function useSubmitReview(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: ReviewInput) =>
      reviewInvitationSchema.parse(await api.post<unknown>(`review/${encodeURIComponent(token)}`, input)),
    onSuccess: (invitation) => queryClient.setQueryData(publicKeys.review(token), invitation),
  });
}
