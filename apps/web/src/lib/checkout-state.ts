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
