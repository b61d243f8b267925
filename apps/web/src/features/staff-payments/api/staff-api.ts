import {
  inventoryItemSchema,
  inventoryListSchema,
  staffAlertsPageSchema,
  staffOrdersPageSchema,
  type InventoryItem,
  type OrderStatus,
  type StockAdjustment,
} from '@latchkey/shared';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

const root = ['staffPayments'] as const;

export interface StaffOrdersParams {
  skip: number;
  limit: number;
  search?: string;
  status?: OrderStatus;
}

/** GET system/orders (platform staff): every order. */
export async function getStaffOrders(params: StaffOrdersParams) {
  return staffOrdersPageSchema.parse(
    await api.get<unknown>('system/orders', {
      query: {
        skip: params.skip,
        limit: params.limit,
        search: params.search || undefined,
        filterBy: params.status ? 'status' : undefined,
        filterValue: params.status,
      },
    }),
  );
}

export const staffOrdersQueryOptions = (params: StaffOrdersParams) =>
  queryOptions({ queryKey: [...root, 'orders', params] as const, queryFn: () => getStaffOrders(params) });

export function useStaffOrders(params: StaffOrdersParams) {
  return useQuery({ ...staffOrdersQueryOptions(params), placeholderData: keepPreviousData });
}

/** GET system/payments/alerts (platform staff). */
export async function getStaffAlerts(skip: number, limit: number) {
  return staffAlertsPageSchema.parse(
    await api.get<unknown>('system/payments/alerts', { query: { skip, limit } }),
  );
}

export function useStaffAlerts(skip: number, limit: number) {
  return useQuery({
    queryKey: [...root, 'alerts', skip, limit] as const,
    queryFn: () => getStaffAlerts(skip, limit),
    placeholderData: keepPreviousData,
  });
}

/** GET system/inventory (platform staff). */
export async function getInventory(): Promise<InventoryItem[]> {
  return inventoryListSchema.parse(await api.get<unknown>('system/inventory'));
}

export function useInventory() {
  return useQuery({ queryKey: [...root, 'inventory'] as const, queryFn: getInventory });
}

/** POST system/inventory/{id}: set a product's units on hand. */
export async function adjustStock(productId: string, input: StockAdjustment): Promise<InventoryItem> {
  return inventoryItemSchema.parse(
    await api.post<unknown>(`system/inventory/${encodeURIComponent(productId)}`, input),
  );
}

export function useAdjustStock() {
  const queryClient = useQueryClient();
  return useMutation<InventoryItem, unknown, { productId: string } & StockAdjustment>({
    mutationFn: ({ productId, ...input }) => adjustStock(productId, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [...root, 'inventory'] }),
  });
}
