import {
  portalResellerSchema,
  type PortalReseller,
  type ResellerActingInput,
  type ResellerLinkInput,
} from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { billingKeys } from './query-keys';

/** POST portal/reseller (the portal's owner): link the portal to a reseller by its code. */
export async function linkReseller(input: ResellerLinkInput): Promise<PortalReseller> {
  return portalResellerSchema.parse(await api.post<unknown>('portal/reseller', input));
}

/** POST portal/reseller/acting (the portal's owner): allow or refuse the reseller acting here. */
export async function setResellerActing(input: ResellerActingInput): Promise<PortalReseller> {
  return portalResellerSchema.parse(await api.post<unknown>('portal/reseller/acting', input));
}

/** DELETE portal/reseller (the portal's owner): end the link. */
export async function unlinkReseller(): Promise<void> {
  await api.delete<unknown>('portal/reseller');
}

function useBillingMutation<Input, Output>(mutationFn: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: billingKeys.overview() }),
  });
}

export const useLinkReseller = () => useBillingMutation(linkReseller);
export const useSetResellerActing = () => useBillingMutation(setResellerActing);
export const useUnlinkReseller = () => useBillingMutation(unlinkReseller);
