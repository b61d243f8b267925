import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { removeFromCart } from '@/lib/cart';
import { clearCheckoutState, forgetOrderCheckout, readOrderCheckout } from '@/lib/checkout-state';
import { getCheckout } from './get-checkout';

/**
 * The order this browser last sent to the payment page, as the server knows it now. Once it is
 * paid its items leave the cart (whichever tab the success page opened in, if any), so they cannot
 * be paid again; what was added since stays. An order that ended unpaid is forgotten and the cart
 * stays. Answers the paid order's reference while the screen shows, to say why the items left.
 */
export function usePaidOrderEmptiesCart(): { paidOrderRef: string | null } {
  // Read once per screen: the record is forgotten below, and the answer must still show.
  const [pending] = useState(readOrderCheckout);
  const { data } = useQuery({
    queryKey: ['checkout', pending?.checkoutId ?? ''] as const,
    queryFn: () => getCheckout(pending!.checkoutId, pending!.token),
    enabled: pending !== null,
    retry: false,
  });
  const status = data?.kind === 'order' ? data.status : undefined;
  useEffect(() => {
    // Only while still remembered: another screen (or the success page) may have taken the items
    // out already, or a newer order replaced it.
    if (!status || !pending || readOrderCheckout()?.checkoutId !== pending.checkoutId) return;
    if (status === 'complete') {
      removeFromCart(pending.items);
      clearCheckoutState();
      forgetOrderCheckout();
    } else if (status === 'canceled' || status === 'expired') {
      forgetOrderCheckout();
    }
  }, [status, pending]);
  return { paidOrderRef: status === 'complete' ? (data?.orderRef ?? null) : null };
}
