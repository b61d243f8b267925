import type { AccessRequest } from '@latchkey/shared';
import { collection } from '@/lib/collection-client';

/**
 * The `accessRequest` collection (brief §7): the one home of its calls. Its screens read and write
 * through the collection client (answers cached 1 s, cleared on every write); TanStack Query holds
 * what the screens show.
 */
export const accessRequests = collection<AccessRequest>('accessRequest');

/** The root of every query of access requests (the person's own and the admins' list alike). */
export const accessRequestsRoot = ['access-requests'] as const;
