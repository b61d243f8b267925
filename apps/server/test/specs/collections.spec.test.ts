import { COLLECTIONS } from '../../src/features/collections/collections';
import { exampleConfig } from '../../src/features/collections/collections.routes';
import type { RequestExample } from '../route-spec';
import { specifyRoutes } from '../route-spec';

// The collections' routes (features/collections: one per operation of each registered collection),
// walked from the route registry (route-spec.ts). A body example that names records is the route's
// own config.example; the others (lists, ls, bodies without ids) are given here from the registry.
// What `ls` reports, and who sees what, is in collections-changes.test.ts and
// collections-isolation.test.ts.
const examples: Record<string, RequestExample> = {};
const given = (key: string, body: unknown) => {
  if (!exampleConfig(body).example) examples[key] = () => ({ payload: body });
};
for (const c of COLLECTIONS) {
  if (c.list) given(`POST /api3/${c.name}`, {});
  if (c.ls) given(`POST /api3/${c.name}/ls`, {});
  if (c.create) given(`POST /api3/${c.name}/new`, c.create.example);
  if (c.save) given(`POST /api3/${c.name}/:id`, c.save.example);
  for (const [method, definition] of Object.entries(c.methods ?? {}))
    given(`POST /api3/${c.name}/${method}/:id`, definition.example);
}

await specifyRoutes('collections', {
  examples,
  answers: {
    'POST /api3/device/unlock/:id': {
      status: [409],
      why: 'the fixtures’ locks never connected, so the command is refused at once (lock_offline): collections.test.ts opens a connected lock',
    },
    'POST /api3/device/lock/:id': {
      status: [409],
      why: 'the fixtures’ locks never connected, so the command is refused at once (lock_offline): collections.test.ts locks a connected lock',
    },
  },
});
