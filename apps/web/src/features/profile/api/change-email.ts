import { acceptedSchema, type Accepted, type EmailChange } from '@latchkey/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/**
 * POST auth/email, sealed: asks to move the account to a new address. A link goes to the new
 * address; the account changes only once it is followed (/verify?token=).
 */
export async function changeEmail(input: EmailChange): Promise<Accepted> {
  return acceptedSchema.parse(await api.post<unknown>('auth/email', input, { sealed: true }));
}

export function useChangeEmail() {
  return useMutation({ mutationFn: changeEmail });
}
