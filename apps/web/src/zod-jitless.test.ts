import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The page's CSP (script-src 'self') refuses `new Function`, and a browser reports every refused
// attempt, even a caught one: zod must not try. See packages/shared/src/zod-jitless.ts.

describe('zod under the content security policy', () => {
  it('is made jitless by the first import of the page, before any schema exists', () => {
    const main = fs.readFileSync(path.join(import.meta.dirname, 'main.tsx'), 'utf8');
    const firstImport = main.split('\n').find((line) => line.startsWith('import '));
    expect(firstImport).toBe("import '@latchkey/shared/zod-jitless';");
  });

  it('then builds and parses schemas without new Function', async () => {
    const RealFunction = globalThis.Function;
    const calls: unknown[][] = [];
    globalThis.Function = new Proxy(RealFunction, {
      construct: (target, args) => (calls.push(args), Reflect.construct(target, args)),
      apply: (target, self, args) => (calls.push(args), Reflect.apply(target, self, args)),
    });
    try {
      await import('@latchkey/shared/zod-jitless');
      const { listQuerySchema, pageSchema, groupSchema } = await import('@latchkey/shared');
      // Made now, after the setting (the test setup loaded the shared schemas before it).
      const query = listQuerySchema({ sortBy: ['name'], filterBy: ['role'] });
      expect(query.parse({ limit: '5', search: 'ada' })).toMatchObject({ limit: 5, search: 'ada' });
      expect(pageSchema(groupSchema).safeParse({ items: [], total: 0 }).success).toBe(true);
      expect(query.safeParse({ limit: '0x10' }).success).toBe(false);
    } finally {
      globalThis.Function = RealFunction;
    }
    expect(calls).toEqual([]);
  });
});
