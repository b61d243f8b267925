// A PMS integration in a few lines: list the portal's locks, then add a person (they are mailed an
// invitation) with access to the first lock. Run it with:
//   LATCHKEY_URL=https://locks.example.com LATCHKEY_API_KEY=lk_live_… PERSON_EMAIL=guest@example.com \
//     node --import tsx packages/client/examples/list-locks-add-person.ts
// The key needs the scopes devices:read and people:write.
import { createLatchkeyClient } from '@latchkey/client';

const client = createLatchkeyClient({
  baseUrl: process.env.LATCHKEY_URL ?? 'http://localhost:3000',
  apiKey: process.env.LATCHKEY_API_KEY ?? '',
});

const locks = await client.GET('/api3/portal/devices', { params: { query: { limit: 50 } } });
if (locks.error) throw new Error(`listing locks failed: ${locks.error.error.message}`);
for (const lock of locks.data.items) console.log(`lock ${lock._id} ${lock.name}`);

const email = process.env.PERSON_EMAIL ?? 'new.guest@example.com';
const added = await client.POST('/api3/portal/user', {
  body: {
    email,
    firstName: process.env.PERSON_FIRST_NAME ?? 'New',
    lastName: process.env.PERSON_LAST_NAME ?? 'Guest',
    role: 'user',
    deviceIds: locks.data.items.slice(0, 1).map((lock) => lock._id),
  },
});
if (added.error) throw new Error(`adding ${email} failed: ${added.error.error.message}`);
console.log(`added person ${added.data.member._id} ${added.data.member.email}`);
