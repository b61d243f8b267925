import { companyCodeSchema, type CompanyCode } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { companyCodeKeys } from './query-keys';

/** GET portal/code/company (admin): the portal's live company codes, newest first. */
export async function getCompanyCodes(): Promise<CompanyCode[]> {
  return companyCodeSchema.array().parse(await api.get<unknown>('portal/code/company'));
}

export const companyCodesQueryOptions = () =>
  queryOptions({ queryKey: companyCodeKeys.list(), queryFn: getCompanyCodes });

export function useCompanyCodes() {
  return useQuery(companyCodesQueryOptions());
}
