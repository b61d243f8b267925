import { billingProfileSchema, type BillingProfile, type BillingProfileInput } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { billingKeys } from './query-keys';

/** POST portal/billing/profile (admin): the buyer's details on bills not closed yet. */
export async function saveBillingProfile(input: BillingProfileInput): Promise<BillingProfile> {
  return billingProfileSchema.parse(await api.post<unknown>('portal/billing/profile', input));
}

export function useSaveBillingProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveBillingProfile,
    // The buyer and VAT of the running month follow the details; closed bills keep theirs.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: billingKeys.all }),
  });
}
