import { resellerSchema, type Reseller, type ResellerCreate } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { resellerKeys } from './query-keys';

/** POST reseller/new: opens a reseller account for the signed-in person. */
export async function createReseller(input: ResellerCreate): Promise<Reseller> {
  return resellerSchema.parse(await api.post<unknown>('reseller/new', input));
}

export function useCreateReseller() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createReseller,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: resellerKeys.all }),
  });
}
