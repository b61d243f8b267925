import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { invalidatePortalData } from '@/lib/query-roots';
import { companyCodePath } from './query-keys';

/** DELETE portal/code/company/{id} (admin): retire a company code; it opens nothing from now on. */
export async function deleteCompanyCode(id: string): Promise<void> {
  await api.delete<unknown>(companyCodePath(id));
}

export function useDeleteCompanyCode() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteCompanyCode, onSuccess: () => invalidatePortalData(queryClient) });
}
