import { userSummarySchema, type ProfileUpdate, type UserSummary } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { sessionQueryKey } from '@/lib/session';

/** POST auth/profile: the person's name. */
export async function updateProfile(input: ProfileUpdate): Promise<UserSummary> {
  return userSummarySchema.parse(await api.post<unknown>('auth/profile', input));
}

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionQueryKey }),
  });
}
