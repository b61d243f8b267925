import { Paper, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { PageHeader } from './page-header';
import { PagedListBody, type PagedListBodyProps } from './paged-list-body';

interface ListPageProps<T> extends Omit<PagedListBodyProps<T>, 'children'> {
  title: string;
  description?: ReactNode;
  /** Buttons beside the title ("New key"). */
  actions?: ReactNode;
  /** Between the title and the list (an alert about the whole list). */
  notice?: ReactNode;
  /** The bar above the list: `ListFilters`, or the page's own inputs. */
  filters?: ReactNode;
  /**
   * Opt-in row selection: the bulk actions' bar (`BulkBar`, list-selection.tsx), shown between the
   * filters and the list while rows are chosen. The page's table draws the checkboxes.
   */
  bulkBar?: ReactNode;
  /** The table head and body for the page's items. */
  table: (items: readonly T[]) => ReactNode;
  /** What the page opens over the list (dialogs). */
  children?: ReactNode;
}

/**
 * A paged list screen: its h1 with a line of context and actions, then in one card the filters
 * and the list, whose loading, error, first-use and no-match states `PagedListBody` shows. The
 * screen supplies its query, texts and table.
 */
export function ListPage<T>({
  title,
  description,
  actions,
  notice,
  filters,
  bulkBar,
  table,
  children,
  ...body
}: ListPageProps<T>) {
  return (
    <Stack gap="lg">
      <PageHeader title={title} description={description} aside={actions} />
      {notice}
      <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }}>
        {filters}
        {bulkBar}
        <PagedListBody {...body}>{table}</PagedListBody>
      </Paper>
      {children}
    </Stack>
  );
}
