import { listingCategorySchema } from '@latchkey/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import { listingKeys } from './query-keys';

/** GET listingCategory (admin): the portal's categories, by name. */
export async function getCategories() {
  return z.array(listingCategorySchema).parse(await api.get<unknown>('listingCategory'));
}

export function useCategories() {
  return useQuery({ queryKey: listingKeys.categories(), queryFn: getCategories });
}

/** POST listingCategory/new. */
export function useCreateCategory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (name: string) =>
      listingCategorySchema.parse(await api.post<unknown>('listingCategory/new', { name })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: listingKeys.categories() }),
  });
}
