import { z } from 'zod';

const booleanParam = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0'])])
  .transform((value) => value === true || value === 'true' || value === '1');

/**
 * The paged list query of the brief §3 for one list: sort and filter fields are allow-listed,
 * so a list can never be sorted or filtered by a column it does not name.
 */
export function listQuerySchema<
  const Sort extends readonly [string, ...string[]],
  const Filter extends readonly [string, ...string[]],
>(fields: { sortBy: Sort; filterBy: Filter }) {
  return z
    .object({
      skip: z.coerce.number().int().min(0).max(1_000_000).default(0),
      limit: z.coerce.number().int().min(1).max(200).default(25),
      search: z.string().trim().max(200).optional(),
      sortBy: z.enum(fields.sortBy).optional(),
      descending: booleanParam.default(false),
      filterBy: z.enum(fields.filterBy).optional(),
      filterValue: z.string().trim().max(200).optional(),
    })
    .refine((q) => (q.filterBy === undefined) === (q.filterValue === undefined), {
      message: 'filterBy and filterValue go together',
      path: ['filterValue'],
    });
}

export type ListQuery<Sort extends string = string, Filter extends string = string> = {
  skip: number;
  limit: number;
  search?: string;
  sortBy?: Sort;
  descending: boolean;
  filterBy?: Filter;
  filterValue?: string;
};

/** The answer of every paged list: one page of items and the total matching the query. */
export function pageSchema<Item extends z.ZodType>(item: Item) {
  return z.object({ items: z.array(item), total: z.number().int() });
}
