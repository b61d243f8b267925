import { accessRequestSchema, type AccessRequest, type AccessRequestInput } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { accessRequests, accessRequestsRoot } from './access-request-collection';

/** POST accessRequest/new (the collection's create): ask for a lock, with a note. */
export async function askForAccess(input: AccessRequestInput): Promise<AccessRequest> {
  return accessRequestSchema.parse(await accessRequests.save(null, input));
}

export function useAskForAccess() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: askForAccess,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accessRequestsRoot }),
  });
}
