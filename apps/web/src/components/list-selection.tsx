import { Button, Checkbox, Group, Paper, Table, Text } from '@mantine/core';
import { useState, type ReactNode } from 'react';

/**
 * Rows chosen on a list screen, by id, for a bulk action. A selection outlives paging and sorting
 * (the person picks on page 1, then page 2); `clear` after the action is done.
 */
export function useRowSelection() {
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set());
  const change = (ids: readonly string[], on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      for (const id of ids) {
        if (on) next.add(id);
        else next.delete(id);
      }
      return next;
    });
  return {
    selected,
    ids: [...selected],
    count: selected.size,
    has: (id: string) => selected.has(id),
    toggle: (id: string) => change([id], !selected.has(id)),
    change,
    clear: () => setSelected(new Set()),
  };
}
export type RowSelection = ReturnType<typeof useRowSelection>;

/** The head cell that chooses (or lets go of) every row shown. */
export function SelectAllTh({
  selection,
  ids,
  label,
}: {
  selection: RowSelection;
  ids: readonly string[];
  label: string;
}) {
  const chosen = ids.filter((id) => selection.has(id)).length;
  return (
    <Table.Th w={40}>
      <Checkbox
        aria-label={label}
        checked={ids.length > 0 && chosen === ids.length}
        indeterminate={chosen > 0 && chosen < ids.length}
        onChange={(event) => selection.change(ids, event.currentTarget.checked)}
      />
    </Table.Th>
  );
}

/** A row's first cell: its checkbox, named after the row ("Choose Front door"). */
export function SelectRowTd({
  selection,
  id,
  label,
}: {
  selection: RowSelection;
  id: string;
  label: string;
}) {
  return (
    <Table.Td w={40}>
      <Checkbox aria-label={label} checked={selection.has(id)} onChange={() => selection.toggle(id)} />
    </Table.Td>
  );
}

/**
 * The bar over a list while rows are chosen: how many, the actions on them, and "Clear". A region
 * with a name, so a screen reader finds the actions after choosing.
 */
export function BulkBar({
  selection,
  noun,
  children,
}: {
  selection: RowSelection;
  noun: [one: string, many: string];
  children: ReactNode;
}) {
  if (selection.count === 0) return null;
  return (
    <Paper
      withBorder
      radius="md"
      p="xs"
      mb="sm"
      bg="var(--mantine-color-blue-light)"
      role="region"
      aria-label="Bulk actions"
    >
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Text size="sm" fw={600} aria-live="polite">
          {selection.count} {selection.count === 1 ? noun[0] : noun[1]} chosen
        </Text>
        <Group gap="xs" wrap="wrap">
          {children}
          <Button variant="subtle" size="xs" onClick={selection.clear}>
            Clear
          </Button>
        </Group>
      </Group>
    </Paper>
  );
}
