import { inviteAnsweredSchema, type InviteAnswered, type InviteResponse } from '@latchkey/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/**
 * POST user/inviteResponse, sealed (it may carry a new password): accept or decline. The answer
 * carries a session when the person just chose their password.
 */
export async function answerInvitation(response: InviteResponse): Promise<InviteAnswered> {
  return inviteAnsweredSchema.parse(
    await api.post<unknown>('user/inviteResponse', response, { sealed: true }),
  );
}

export function useAnswerInvitation() {
  return useMutation({ mutationFn: answerInvitation });
}
