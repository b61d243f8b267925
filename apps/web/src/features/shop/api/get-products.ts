import { productListSchema, productSchema, type Product } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET product (anyone): the products on sale. */
export async function getProducts(): Promise<Product[]> {
  return productListSchema.parse(await api.get<unknown>('product'));
}

/** GET product/{id} (anyone). */
export async function getProduct(productId: string): Promise<Product> {
  return productSchema.parse(await api.get<unknown>(`product/${encodeURIComponent(productId)}`));
}

export const productsQueryOptions = () =>
  queryOptions({ queryKey: ['shop', 'products'] as const, queryFn: getProducts, staleTime: 30_000 });

export const productQueryOptions = (productId: string) =>
  queryOptions({
    queryKey: ['shop', 'product', productId] as const,
    queryFn: () => getProduct(productId),
    staleTime: 30_000,
  });

export function useProducts() {
  return useQuery(productsQueryOptions());
}

export function useProduct(productId: string) {
  return useQuery(productQueryOptions(productId));
}
