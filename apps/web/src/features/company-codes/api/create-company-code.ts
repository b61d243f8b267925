import { companyCodeSchema, type CompanyCode, type CompanyCodeInput } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { invalidatePortalData } from '@/lib/query-roots';

/**
 * POST portal/code/company (admin): add a company code. The server checks the code rules (digits,
 * 4–12 long, within every keypad of the portal, unused) and answers 400 on `body.code`.
 */
export async function createCompanyCode(input: CompanyCodeInput): Promise<CompanyCode> {
  return companyCodeSchema.parse(await api.post<unknown>('portal/code/company', input));
}

export function useCreateCompanyCode() {
  const queryClient = useQueryClient();
  // A company code opens every keypad lock: the locks' "who can open" changes too.
  return useMutation({ mutationFn: createCompanyCode, onSuccess: () => invalidatePortalData(queryClient) });
}
