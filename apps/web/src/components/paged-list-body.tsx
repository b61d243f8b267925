import { Table, type TableProps } from '@mantine/core';
import type { ReactNode } from 'react';
import { ListPagination } from './list-pagination';
import { QueryError } from './query-error';
import { TableSkeleton } from './table-skeleton';

interface PagedListQuery<T> {
  isPending: boolean;
  error: unknown;
  data: { total: number; items: readonly T[] } | undefined;
  isPlaceholderData: boolean;
  refetch: () => unknown;
}

export interface PagedListBodyProps<T> {
  query: PagedListQuery<T>;
  loadingLabel: string;
  errorTitle: string;
  /** Whether a search or filter narrows the list (else an empty list is a first use). */
  filtered: boolean;
  /** The first-use {@link EmptyList} (nothing at all yet, nothing filtered). */
  empty: ReactNode;
  /** The {@link EmptyList} when nothing matches, with a way out. */
  noMatch: ReactNode;
  /** The page controls of the list's `useListParams`. */
  list: { page: number; pageSize: number; setPage: (page: number) => void };
  /** What the list holds, one and many: `['lock', 'locks']`. */
  noun: readonly [one: string, many: string];
  minWidth?: number;
  tableProps?: Omit<TableProps, 'style' | 'children'>;
  /** The table head and body for the page's items. */
  children: (items: readonly T[]) => ReactNode;
}

/** A paged list's body: loading, error, first-use empty, no match, or the table and its pagination. */
export function PagedListBody<T>({
  query,
  loadingLabel,
  errorTitle,
  filtered,
  empty,
  noMatch,
  list,
  noun,
  minWidth = 300,
  tableProps,
  children,
}: PagedListBodyProps<T>) {
  const { isPending, error, data, isPlaceholderData, refetch } = query;
  if (isPending) return <TableSkeleton label={loadingLabel} />;
  if (error) return <QueryError title={errorTitle} error={error} onRetry={() => void refetch()} />;
  if (!data) return null;
  if (data.total === 0 && !filtered) return empty;
  if (data.items.length === 0) return noMatch;
  return (
    <>
      <Table.ScrollContainer minWidth={minWidth}>
        <Table
          verticalSpacing="sm"
          highlightOnHover
          {...tableProps}
          style={{ opacity: isPlaceholderData ? 0.6 : 1 }}
        >
          {children(data.items)}
        </Table>
      </Table.ScrollContainer>
      <ListPagination
        page={list.page}
        pageSize={list.pageSize}
        total={data.total}
        onChange={list.setPage}
        noun={data.total === 1 ? noun[0] : noun[1]}
      />
    </>
  );
}
