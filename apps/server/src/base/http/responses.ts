import { errorResponseSchema } from '@latchkey/shared';

/** Every route can answer with the one error shape; spread this into a route's response map. */
export const errorResponses = {
  '4xx': errorResponseSchema,
  500: errorResponseSchema,
} as const;
