import { MAX_LINE_QUANTITY, STORAGE_KEYS } from '@latchkey/shared';
import { useSyncExternalStore } from 'react';
import { addToCart, clearCart, replaceCart, setCartQuantity } from './cart';
import { storage, type Cart } from './storage';

// The cart as React state: every component showing it re-renders after any change, in this tab or
// another (storage events). The snapshot is kept per stored text, so an unchanged cart is the same
// object (useSyncExternalStore needs a stable snapshot).

let lastText: string | null = null;
let lastCart: Cart = {};

function snapshot(): Cart {
  const cart = storage.getCart();
  const text = JSON.stringify(cart);
  if (text !== lastText) {
    lastText = text;
    lastCart = cart;
  }
  return lastCart;
}

function subscribe(onChange: () => void): () => void {
  return storage.subscribe((key) => {
    if (key === STORAGE_KEYS.cart) onChange();
  });
}

/** The cart (item key → quantity, brief §4) and its operations, each persisted at once. */
export function useCart() {
  const cart = useSyncExternalStore(subscribe, snapshot, snapshot);
  const count = Object.values(cart).reduce((sum, quantity) => sum + quantity, 0);
  return {
    cart,
    /** Units in the cart, all items together. */
    count,
    add: addToCart,
    setQuantity: setCartQuantity,
    clear: clearCart,
    replace: replaceCart,
  };
}

/** The cart as the API's order lines; no more of one product than one order may ask for. */
export function cartLines(cart: Cart): { productId: string; quantity: number }[] {
  return Object.entries(cart).map(([productId, quantity]) => ({
    productId,
    quantity: Math.min(Math.floor(quantity), MAX_LINE_QUANTITY),
  }));
}
