import type { Database } from '../db/database';
import { DEMO_RESELLER_ACCOUNTS } from './demo-billing';

// The content demo (issue 20, item 6). The pages themselves (terms, privacy, imprint, help topics)
// every deployment gets at first start (features/content/default-pages.ts); the demo adds a brand:
// the demo reseller, Keystone Integrators, shows its customers (Lakeside Clinic, Harbor Offices)
// the Keystone Access brand in the app, their mails and their invoices.

/** Gives the demo reseller the Keystone Access brand. */
export async function seedDemoBrands(db: Database): Promise<void> {
  const owner = await db
    .selectFrom('users')
    .select('id')
    .where('email', '=', DEMO_RESELLER_ACCOUNTS.reseller.email)
    .executeTakeFirst();
  if (!owner) return;
  await db
    .updateTable('resellers')
    .set({ brand: 'keystone' })
    .where('owner_user_id', '=', owner.id)
    .execute();
}
