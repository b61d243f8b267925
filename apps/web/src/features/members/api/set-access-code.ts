import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AccessCodeInput } from '@latchkey/shared';
import { memberDetailSchema } from '@latchkey/shared';
import { api } from '@/lib/api-client';
import { invalidatePortalData } from '@/lib/query-roots';

const accessCodeAnswerSchema = memberDetailSchema.pick({ accessCode: true });

/**
 * POST user/accessCode (admin): set a person's access code (PIN) here, or clear it with null. The
 * server refuses (400, naming the rule) a code some keypad the person can reach cannot take, or
 * one someone else in the portal has.
 */
export async function setAccessCode(input: AccessCodeInput) {
  return accessCodeAnswerSchema.parse(await api.post<unknown>('user/accessCode', input));
}

export function useSetAccessCode() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: setAccessCode, onSuccess: () => invalidatePortalData(queryClient) });
}
