import type { Product } from '@latchkey/shared';
import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json } from '@/testing/fetch-mock';
import { renderApp } from '@/testing/render-app';

const codeLock: Product = {
  _id: 'code-lock',
  sku: 'CODE-LOCK',
  name: 'Keypad Code Lock',
  kind: 'lock',
  summary: 'A lock with a keypad',
  description: 'Opens with a code.',
  image: '/shop/code-lock.svg',
  price: 15900,
  currency: 'EUR',
  available: 3,
  packSize: 1,
  preRegisters: false,
};

describe('ProductPage', () => {
  it('keeps a quantity over the stock as typed, says why it is too many, and takes the most on leaving', async () => {
    renderApp('/product/code-lock', { 'GET product/code-lock': () => json(codeLock) });
    const field = await screen.findByRole('textbox', { name: 'Quantity' });
    fireEvent.change(field, { target: { value: '5' } });
    expect(field).toHaveValue('5');
    expect(screen.getByText('At most 3 (3 available)')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add to cart' })).toBeDisabled();
    fireEvent.blur(field);
    expect(field).toHaveValue('3');
    expect(screen.queryByText('At most 3 (3 available)')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add to cart' })).toBeEnabled();
  });
});
