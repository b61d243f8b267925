import { resellerCustomerSchema, type ResellerCustomer, type ResellerCustomerInput } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { resellerKeys } from './query-keys';

/** POST reseller/customer: a new portal for a customer, whose admin is invited by mail. */
export async function createCustomer(input: ResellerCustomerInput): Promise<ResellerCustomer> {
  return resellerCustomerSchema.parse(await api.post<unknown>('reseller/customer', input));
}

export function useCreateCustomer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createCustomer,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: resellerKeys.all }),
  });
}
