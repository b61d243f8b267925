import { quoteSchema, type Quote, type ShippingCountry, type ShippingOptionId } from '@latchkey/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export interface QuoteRequest {
  items: { productId: string; quantity: number }[];
  country?: ShippingCountry;
  shippingOption?: ShippingOptionId;
}

/** POST shop/quote (anyone): the cart at the server's prices, with shipping for a country. */
export async function getQuote(request: QuoteRequest): Promise<Quote> {
  return quoteSchema.parse(await api.post<unknown>('shop/quote', request));
}

export const quoteQueryOptions = (request: QuoteRequest) =>
  queryOptions({
    queryKey: ['shop', 'quote', request] as const,
    queryFn: () => getQuote(request),
    staleTime: 10_000,
  });

/** The quote of a cart; nothing is asked for an empty cart. */
export function useQuote(request: QuoteRequest) {
  return useQuery({
    ...quoteQueryOptions(request),
    enabled: request.items.length > 0,
    placeholderData: keepPreviousData,
  });
}
