import { accessRequestSchema, type AccessRequest, type Schedule } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { accessRequests } from './access-request-collection';

export type AccessRequestAnswer =
  | { requestId: string; action: 'grant'; schedule: Schedule | null }
  | { requestId: string; action: 'decline'; reason: string }
  | { requestId: string; action: 'withdraw' };

/**
 * The collection's remote calls on a request: POST accessRequest/grant/{id} (an admin: direct access
 * with the schedule), accessRequest/decline/{id} (an admin, with the reason) and
 * accessRequest/withdraw/{id} (the person, their own waiting one).
 */
export async function answerAccessRequest(answer: AccessRequestAnswer): Promise<AccessRequest> {
  const body =
    answer.action === 'grant'
      ? { schedule: answer.schedule }
      : answer.action === 'decline'
        ? { reason: answer.reason }
        : {};
  return accessRequestSchema.parse(await accessRequests.call<unknown>(answer.action, answer.requestId, body));
}

export function useAnswerAccessRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: answerAccessRequest,
    // A grant changes the person's locks too: everything about access is read again.
    onSuccess: () => queryClient.invalidateQueries(),
  });
}
