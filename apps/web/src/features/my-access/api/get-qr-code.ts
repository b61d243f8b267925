import { qrTokenSchema, type QrToken } from '@latchkey/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** A new code this long before the shown one expires, so the one on screen always works. */
const RENEW_BEFORE_EXPIRY_MS = 20_000;

/** When to ask for the next code: shortly before this one expires (never sooner than in 5 s). */
export function renewalDelayMs(token: QrToken, now = Date.now()): number {
  return Math.max(5_000, Date.parse(token.expiresAt) - now - RENEW_BEFORE_EXPIRY_MS);
}

/**
 * POST user/qr: the signed-in person's QR code for the acting portal, renewed by itself before
 * it expires. Each one opens a lock once; showing the page again gets a fresh one.
 */
export function useQrCode(userId: string) {
  return useQuery({
    queryKey: ['qr', userId],
    queryFn: async () => qrTokenSchema.parse(await api.post<unknown>('user/qr')),
    staleTime: 0,
    gcTime: 0,
    refetchOnWindowFocus: true,
    refetchInterval: (query) => (query.state.data ? renewalDelayMs(query.state.data) : false),
  });
}
