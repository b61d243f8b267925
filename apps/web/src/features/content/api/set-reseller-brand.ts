import { portalBrandSchema, type PortalBrand, type ResellerBrandInput } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { contentKeys } from './query-keys';

/** PUT reseller/brand (a reseller): the brand its customers see; null for the host's. */
export async function setResellerBrand(input: ResellerBrandInput): Promise<PortalBrand> {
  return portalBrandSchema.parse(await api.put<unknown>('reseller/brand', input));
}

export function useSetResellerBrand() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setResellerBrand,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: contentKeys.brand() }),
  });
}
