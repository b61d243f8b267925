import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';

/** Rows per page of the paged admin lists. */
export const PAGE_SIZE = 25;

interface ListParamsOptions<Sort extends string> {
  /** Columns the list may be sorted by (the server's allow-list). */
  sortFields: readonly Sort[];
  defaultSort: Sort;
  defaultDescending?: boolean;
  pageSize?: number;
}

/**
 * The state of a paged, searchable, sortable list, kept in the URL (`?page=2&search=x&sort=-name`)
 * so that Back, reload and shared links show the same page. Every change but paging starts again
 * at page 1; changes replace the history entry rather than pile up.
 */
export function useListParams<Sort extends string>({
  sortFields,
  defaultSort,
  defaultDescending = false,
  pageSize = PAGE_SIZE,
}: ListParamsOptions<Sort>) {
  const [searchParams, setSearchParams] = useSearchParams();

  const pageParam = Number(searchParams.get('page'));
  const page = Number.isInteger(pageParam) && pageParam >= 1 ? pageParam : 1;
  const search = searchParams.get('search') ?? '';
  const sortParam = searchParams.get('sort') ?? '';
  const sortName = sortParam.replace(/^-/, '') as Sort;
  const sortValid = sortFields.includes(sortName);
  const sortBy = sortValid ? sortName : defaultSort;
  const descending = sortValid ? sortParam.startsWith('-') : defaultDescending;

  const update = useCallback(
    (changes: Record<string, string | null>, keepPage = false) =>
      setSearchParams(
        (previous) => {
          const next = new URLSearchParams(previous);
          for (const [key, value] of Object.entries(changes)) {
            if (value === null || value === '') next.delete(key);
            else next.set(key, value);
          }
          if (!keepPage) next.delete('page');
          return next;
        },
        { replace: true },
      ),
    [setSearchParams],
  );

  const setPage = useCallback(
    (next: number) => update({ page: next > 1 ? String(next) : null }, true),
    [update],
  );
  const setSearch = useCallback(
    (next: string) => {
      if (next.trim() !== search) update({ search: next.trim() || null });
    },
    [search, update],
  );
  /** Sorting by the current column flips the direction; another column starts ascending. */
  const toggleSort = useCallback(
    (field: Sort) => {
      const nextDescending = field === sortBy ? !descending : false;
      update({ sort: `${nextDescending ? '-' : ''}${field}` });
    },
    [descending, sortBy, update],
  );
  /** The props a SortableTh needs for one column: `<SortableTh {...list.sortProps('name')}>`. */
  const sortProps = useCallback(
    (field: Sort) => ({ sorted: sortBy === field, descending, onSort: () => toggleSort(field) }),
    [descending, sortBy, toggleSort],
  );
  const param = useCallback((key: string) => searchParams.get(key) ?? '', [searchParams]);
  const setParam = useCallback((key: string, value: string | null) => update({ [key]: value }), [update]);
  /**
   * Several changes at once. Two setParam calls in one event would lose the first: the router
   * hands each functional update the same search params.
   */
  const setParams = useCallback((changes: Record<string, string | null>) => update(changes), [update]);

  const query = useMemo(
    () => ({
      skip: (page - 1) * pageSize,
      limit: pageSize,
      search: search || undefined,
      sortBy,
      descending,
    }),
    [descending, page, pageSize, search, sortBy],
  );

  return {
    page,
    setPage,
    pageSize,
    search,
    setSearch,
    sortBy,
    descending,
    toggleSort,
    sortProps,
    param,
    setParam,
    setParams,
    query,
  };
}

export type ListParams<Sort extends string> = ReturnType<typeof useListParams<Sort>>;
