import { addressSchema, SHIPPING_OPTION_IDS, type Address, type ShippingOptionId } from '@latchkey/shared';
import { z } from 'zod';

// What the buyer entered between the cart and paying (address, email, shipping), kept in this
// tab's sessionStorage: it survives a reload and the way back from the provider's page, and is gone
// with the tab. The cart itself is in localStorage under `cart` (brief §4, lib/cart.ts).

const KEY = 'latchkey.checkout';

const stateSchema = z.object({
  email: z.string().default(''),
  address: addressSchema.optional(),
  shippingOption: z.enum(SHIPPING_OPTION_IDS).optional(),
});

export interface CheckoutState {
  email: string;
  address?: Address;
  shippingOption?: ShippingOptionId;
}

export function readCheckoutState(): CheckoutState {
  try {
    const parsed = stateSchema.safeParse(JSON.parse(window.sessionStorage.getItem(KEY) ?? '{}'));
    return parsed.success ? parsed.data : { email: '' };
  } catch {
    return { email: '' };
  }
}

export function saveCheckoutState(change: Partial<CheckoutState>): CheckoutState {
  const next = { ...readCheckoutState(), ...change };
  try {
    window.sessionStorage.setItem(KEY, JSON.stringify(next));
  } catch {
    // Without sessionStorage the steps still work within this page load.
  }
  return next;
}

export function clearCheckoutState(): void {
  try {
    window.sessionStorage.removeItem(KEY);
  } catch {
    // nothing kept
  }
}

// The order being paid (its checkout's id and token), kept in localStorage beside the cart: the
// success page may open in another tab, or never (a tab closed on the provider's page). Every screen
// that could pay the cart again asks what became of it, and a paid order empties the cart
// (issue 19, item 2: paid items stayed in the cart and could be paid twice).

const ORDER_KEY = 'latchkey.orderCheckout';

const orderCheckoutSchema = z.object({
  checkoutId: z.string().min(1),
  token: z.string().min(1),
  /** What the order paid for (product → units): only these leave the cart once it is paid. */
  items: z.record(z.string(), z.number()),
});

export type OrderCheckout = z.infer<typeof orderCheckoutSchema>;

export function rememberOrderCheckout(checkout: OrderCheckout): void {
  try {
    window.localStorage.setItem(ORDER_KEY, JSON.stringify(checkout));
  } catch {
    // Without localStorage the success page still empties the cart.
  }
}

export function readOrderCheckout(): OrderCheckout | null {
  try {
    const parsed = orderCheckoutSchema.safeParse(
      JSON.parse(window.localStorage.getItem(ORDER_KEY) ?? 'null'),
    );
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function forgetOrderCheckout(): void {
  try {
    window.localStorage.removeItem(ORDER_KEY);
  } catch {
    // nothing kept
  }
}
