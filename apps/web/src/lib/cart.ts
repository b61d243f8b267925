import { storage, type Cart } from './storage';

/** Cart operations of the brief §4; every change is persisted at once. */

/** Adds `quantity` (default 1) of an item to what is already in the cart. */
export function addToCart(itemKey: string, quantity = 1): Cart {
  const cart = storage.getCart();
  return setCartQuantity(itemKey, (cart[itemKey] ?? 0) + quantity);
}

/** Sets an item's quantity; a falsy (or non-positive) quantity removes the item. */
export function setCartQuantity(itemKey: string, quantity: number | null | undefined): Cart {
  const cart = storage.getCart();
  if (!quantity || !Number.isFinite(quantity) || quantity <= 0) delete cart[itemKey];
  else cart[itemKey] = quantity;
  storage.setCart(cart);
  return cart;
}

/** Empties the cart. */
export function clearCart(): Cart {
  storage.setCart({});
  return {};
}

/**
 * Takes paid units out of the cart (product → units): what was added since the order stays, and an
 * item with nothing left goes.
 */
export function removeFromCart(paid: Cart): Cart {
  const cart = storage.getCart();
  for (const [key, quantity] of Object.entries(paid)) {
    const left = (cart[key] ?? 0) - (quantity ?? 0);
    if (left > 0) cart[key] = left;
    else delete cart[key];
  }
  storage.setCart(cart);
  return cart;
}

/** Replaces the whole cart, dropping entries without a positive quantity. */
export function replaceCart(next: Cart): Cart {
  const cart: Cart = {};
  for (const [key, quantity] of Object.entries(next)) {
    if (quantity && Number.isFinite(quantity) && quantity > 0) cart[key] = quantity;
  }
  storage.setCart(cart);
  return cart;
}

export const getCart = (): Cart => storage.getCart();
