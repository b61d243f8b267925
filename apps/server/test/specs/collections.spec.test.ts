import { COLLECTIONS } from '../../src/features/collections/collections';
import { seedCatalogue } from '../../src/features/shop/catalogue';
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
/** A `{deviceId}`-style example filled from the calling side's fixtures. */
const filled =
  (body: unknown): RequestExample =>
  (tenant) => ({
    payload: JSON.parse(
      JSON.stringify(body).replace(/"\{(\w+)\}"/g, (_, key: string) =>
        JSON.stringify(tenant[key as keyof typeof tenant]),
      ),
    ) as unknown,
  });
for (const c of COLLECTIONS) {
  if (c.list) given(`POST /api3/${c.name}`, {});
  if (c.ls) given(`POST /api3/${c.name}/ls`, {});
  if (c.create) examples[`POST /api3/${c.name}/new`] = filled(c.create.example);
  if (c.save) given(`POST /api3/${c.name}/:id`, c.save.example);
  for (const [method, definition] of Object.entries(c.methods ?? {}))
    given(`POST /api3/${c.name}/${method}/:id`, definition.example);
}

await specifyRoutes('collections', {
  // The shop's catalogue, for inventory's product ids (and product's list).
  setup: (t) => seedCatalogue(t.app.db),
  examples,
  answers: {
    'POST /api3/accessRequest/decline/:id': {
      status: [200, 409],
      why: 'POST accessRequest/grant/{id} runs before it and answers the fixture request: access-requests.test.ts declines a waiting one',
    },
    'POST /api3/accessRequest/withdraw/:id': {
      status: [404, 409],
      why: 'the walk calls as the admin, who did not ask (404 to anyone but the person), and the request is answered by then: access-requests.test.ts withdraws',
    },
    'POST /api3/rfidPeriph/new': {
      status: [201, 409],
      why: 'the fixtures’ reader said it was online once; after the heartbeat window it is offline and the request is refused (409): collections-changes.test.ts enrolls on a reader that just said it is online',
    },
    'POST /api3/fingerPrintPeriph/new': {
      status: [201, 409],
      why: 'the fixtures’ reader said it was online once; after the heartbeat window it is offline and the request is refused (409): collections-changes.test.ts enrolls on a reader that just said it is online',
    },
    'POST /api3/fingerPrintPeriph/cancel/:id': {
      status: [404],
      why: 'the fixtures’ enrollment is a card one, which fingerPrintPeriph never cancels: collections-changes.test.ts cancels a fingerprint enrollment',
    },
    // Deletions run last, longer paths first (route-spec.ts walkOrder).
    'DELETE /api3/rfid/:id': {
      status: [204, 404],
      why: 'DELETE userPortal/{id} runs before it and takes the card’s holder out of the portal, which revokes their card: collections-changes.test.ts deletes a card',
    },
    'DELETE /api3/lockInvite/:id': {
      status: [204, 404],
      why: 'DELETE crudDevices/{id} runs before it (a longer path) and deletes the lock, with its guest invites: collections-changes.test.ts deletes an invite',
    },
    'DELETE /api3/fingerPrint/:id': {
      status: [204, 404],
      why: 'DELETE crudDevices/{id} may run before it (paths of one length) and deletes the lock the finger was enrolled at: collections-changes.test.ts deletes a fingerprint',
    },
    'POST /api3/device/unlock/:id': {
      status: [409],
      why: 'the fixtures’ locks never connected, so the command is refused at once (lock_offline): collections.test.ts opens a connected lock',
    },
    'GET /api3/reseller/:id': {
      status: [404],
      why: 'the fixtures’ admin has no reseller account (404, as GET reseller answers): collections-reseller.test.ts reads a reseller’s customer',
    },
    'POST /api3/reseller': {
      status: [404],
      why: 'the fixtures’ admin has no reseller account (404, as GET reseller answers): collections-reseller.test.ts lists a reseller’s customers',
    },
    'POST /api3/device/lock/:id': {
      status: [409],
      why: 'the fixtures’ locks never connected, so the command is refused at once (lock_offline): collections.test.ts locks a connected lock',
    },
  },
});
