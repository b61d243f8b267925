import {
  developerCallResultSchema,
  type DeveloperCallInput,
  type DeveloperCallResult,
} from '@latchkey/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/**
 * POST system/developerCall (platform staff): the server runs one API call as the signed-in person
 * and answers its status, headers, timing and body. Every call is audited on the server.
 */
export async function runDeveloperCall(input: DeveloperCallInput): Promise<DeveloperCallResult> {
  return developerCallResultSchema.parse(await api.post<unknown>('system/developerCall', input));
}

export function useRunDeveloperCall() {
  return useMutation({ mutationFn: runDeveloperCall });
}
