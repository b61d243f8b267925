import type { ListQuery } from '@latchkey/shared';
import type { CollectionPage } from './registry';

/**
 * A basic user's page of the few records that are theirs (the locks they reach, their cards), with
 * the list query applied in memory: what the portal-wide list does in SQL for admins, over a set
 * that a person's access bounds. `text` says what the search looks in, `sortKey` what each sort names.
 */
export function pageOfOwn<Item>(
  items: Item[],
  query: ListQuery,
  fields: {
    text: (item: Item) => string;
    sortKey: (item: Item, sortBy: string) => string | number | null;
    filterKey?: (item: Item, filterBy: string) => string | null;
    defaultSortBy: string;
  },
): CollectionPage<Item> {
  const search = query.search?.toLowerCase();
  const filterBy = query.filterBy;
  const matching = items.filter(
    (item) =>
      (!search || fields.text(item).toLowerCase().includes(search)) &&
      (!filterBy || fields.filterKey?.(item, filterBy) === query.filterValue),
  );
  const sortBy = query.sortBy ?? fields.defaultSortBy;
  const sorted = [...matching].sort((a, b) => {
    const x = fields.sortKey(a, sortBy);
    const y = fields.sortKey(b, sortBy);
    const order = x === y ? 0 : x === null ? 1 : y === null ? -1 : x < y ? -1 : 1;
    return query.descending ? -order : order;
  });
  return { items: sorted.slice(query.skip, query.skip + query.limit), total: matching.length };
}
