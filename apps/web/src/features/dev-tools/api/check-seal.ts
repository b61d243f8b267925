import { sealCheckResultSchema, type SealCheckResult } from '@latchkey/shared';
import { api } from '@/lib/api-client';

/**
 * POST about/sealCheck (public, sealed): the probe goes sealed exactly as sign-in's body does (the
 * server's key from GET auth/sealKey, a key pair per page load, the time as the nonce); the server
 * opens it and answers its digest.
 */
export async function checkSeal(probe: string): Promise<SealCheckResult> {
  return sealCheckResultSchema.parse(await api.post<unknown>('about/sealCheck', { probe }, { sealed: true }));
}
