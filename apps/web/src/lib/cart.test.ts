import { describe, expect, it } from 'vitest';
import { addToCart, clearCart, getCart, removeFromCart, replaceCart, setCartQuantity } from './cart';

describe('cart', () => {
  it('adding increases the quantity', () => {
    addToCart('lock-a');
    addToCart('lock-a', 2);
    expect(getCart()).toEqual({ 'lock-a': 3 });
  });

  it('setting a falsy quantity removes the item', () => {
    addToCart('lock-a', 2);
    addToCart('lock-b');
    setCartQuantity('lock-a', 0);
    expect(getCart()).toEqual({ 'lock-b': 1 });
    setCartQuantity('lock-b', null);
    expect(getCart()).toEqual({});
  });

  it('sets a quantity outright', () => {
    setCartQuantity('lock-a', 5);
    expect(getCart()).toEqual({ 'lock-a': 5 });
  });

  it('can be cleared and replaced', () => {
    addToCart('lock-a');
    clearCart();
    expect(getCart()).toEqual({});
    replaceCart({ 'lock-c': 4, 'lock-d': 0 });
    expect(getCart()).toEqual({ 'lock-c': 4 });
  });

  it('is persisted after each change', () => {
    addToCart('lock-a');
    expect(JSON.parse(localStorage.getItem('cart')!)).toEqual({ 'lock-a': 1 });
    setCartQuantity('lock-a', 3);
    expect(JSON.parse(localStorage.getItem('cart')!)).toEqual({ 'lock-a': 3 });
  });

  it('starts from an empty cart when the stored one is corrupt', () => {
    localStorage.setItem('cart', '{broken');
    addToCart('lock-a');
    expect(getCart()).toEqual({ 'lock-a': 1 });
  });

  it('takes paid units out, keeping what was added since', () => {
    replaceCart({ 'lock-a': 3, 'lock-b': 1, 'lock-c': 2 });
    removeFromCart({ 'lock-a': 2, 'lock-b': 1, 'lock-d': 4 });
    expect(getCart()).toEqual({ 'lock-a': 1, 'lock-c': 2 });
    removeFromCart({ 'lock-a': 5 });
    expect(getCart()).toEqual({ 'lock-c': 2 });
  });
});
