import { outboxPageSchema } from '@latchkey/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export interface MailParams {
  skip: number;
  limit: number;
  search?: string;
  /** A template name (verify_email, invitation…), or every kind. */
  template?: string;
}

/** GET admin/mail (platform staff): the outbox, newest first; search on address and subject. */
export async function getMail({ template, ...params }: MailParams) {
  return outboxPageSchema.parse(
    await api.get<unknown>('admin/mail', {
      query: { ...params, ...(template ? { filterBy: 'template', filterValue: template } : {}) },
    }),
  );
}

export const mailQueryOptions = (params: MailParams) =>
  queryOptions({
    queryKey: ['devMailbox', params],
    queryFn: () => getMail(params),
    placeholderData: keepPreviousData,
  });

export function useMail(params: MailParams) {
  return useQuery(mailQueryOptions(params));
}
