import { Group, Pagination, Text } from '@mantine/core';
import { useEffect } from 'react';

interface ListPaginationProps {
  page: number;
  pageSize: number;
  total: number;
  onChange: (page: number) => void;
  /** What the list holds, plural ("locks"). */
  noun: string;
}

const number = new Intl.NumberFormat('en-US');

/** "26–50 of 73 locks" and the page buttons; a page past the end (after deletions) moves back. */
export function ListPagination({ page, pageSize, total, onChange, noun }: ListPaginationProps) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  useEffect(() => {
    if (page > pages) onChange(pages);
  }, [onChange, page, pages]);

  if (total === 0) return null;
  const first = (page - 1) * pageSize + 1;
  const last = Math.min(total, page * pageSize);
  return (
    <Group justify="space-between" gap="sm" mt="md" wrap="wrap">
      <Text size="sm" c="dimmed" aria-live="polite">
        {first === last ? number.format(first) : `${number.format(first)}–${number.format(last)}`} of{' '}
        {number.format(total)} {noun}
      </Text>
      {pages > 1 && (
        <Pagination
          total={pages}
          value={Math.min(page, pages)}
          onChange={onChange}
          size="sm"
          siblings={1}
          boundaries={1}
          getControlProps={(control) => ({ 'aria-label': `${control} page` })}
          getItemProps={(item) => ({ 'aria-label': `Page ${item}` })}
        />
      )}
    </Group>
  );
}
