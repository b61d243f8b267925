import { BillingPage } from '@/features/billing/components/billing-page';
import { MyPurchasesPage } from '@/features/shop/components/my-purchases-page';
import { hasRequiredRole } from '@/lib/authorization';
import { useSession } from '@/lib/session';

/**
 * /app/billing (brief §6: any signed-in user): an admin of the portal they act in sees its
 * billing (plan, this month, past bills); anyone else what is theirs, their purchases and receipts.
 * Here rather than in either feature: billing's screens are imported by the shop's, not the other
 * way round.
 */
export function BillingScreen() {
  const { data: session } = useSession();
  const runsPortal = session && session.portal !== null && hasRequiredRole(session.roles, ['admin']);
  return runsPortal ? <BillingPage /> : <MyPurchasesPage />;
}
