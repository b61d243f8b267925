import { Group, Table, UnstyledButton, type TableThProps } from '@mantine/core';
import { IconChevronDown, IconChevronUp, IconSelector } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import classes from './sortable-th.module.css';

interface SortableThProps extends Omit<TableThProps, 'children' | 'onClick'> {
  children: ReactNode;
  /** This column is the one the list is sorted by. */
  sorted: boolean;
  descending: boolean;
  onSort: () => void;
}

/** A column header that sorts the list by its column; screen readers hear the order (aria-sort). */
export function SortableTh({ children, sorted, descending, onSort, ...props }: SortableThProps) {
  const Icon = sorted ? (descending ? IconChevronDown : IconChevronUp) : IconSelector;
  return (
    <Table.Th
      scope="col"
      aria-sort={sorted ? (descending ? 'descending' : 'ascending') : 'none'}
      className={classes.th}
      {...props}
    >
      <UnstyledButton onClick={onSort} className={classes.control}>
        <Group gap={4} wrap="nowrap" justify="space-between">
          <span>{children}</span>
          <Icon size={14} stroke={1.8} aria-hidden="true" className={classes.icon} />
        </Group>
      </UnstyledButton>
    </Table.Th>
  );
}
