import * as shared from '@latchkey/shared';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { SCHEMA_FACTORIES } from './schema-factories';

describe('the schema factories the build may leave out', () => {
  it.each(SCHEMA_FACTORIES)('%s is a function of the shared package that builds a schema', (name) => {
    const factory = (shared as Record<string, unknown>)[name];
    expect(typeof factory).toBe('function');
    // Each builds a zod schema from its arguments: called with what the simplest use passes.
    const simplest: Record<string, unknown[]> = {
      listQuerySchema: [{ sortBy: ['name'], filterBy: ['name'] }],
      keysetListQuerySchema: [
        { sortBy: ['name'], filterBy: ['name'], defaultSortBy: 'name', sortKeys: { name: 'text' } },
      ],
      pageSchema: [z.string()],
      keysetPageSchema: [z.string()],
      collectionPageSchema: [z.string()],
      collectionChangesSchema: [z.string()],
      integerParam: [{ min: 0, max: 10 }],
    };
    expect((factory as (...args: unknown[]) => unknown)(...(simplest[name] ?? []))).toBeInstanceOf(z.ZodType);
  });
});
