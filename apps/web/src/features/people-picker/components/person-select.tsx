import type { ScopedUser } from '@latchkey/shared';
import { Group, Select, Stack, Text, type SelectProps } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { useScopedUsers } from '../api/get-scoped-users';

interface PersonSelectProps extends Omit<
  SelectProps,
  'data' | 'value' | 'onChange' | 'searchable' | 'onSearchChange' | 'searchValue' | 'filter'
> {
  value: string | null;
  onChange: (userId: string | null, person: ScopedUser | null) => void;
  /** People not to offer (the current holder). */
  exclude?: readonly string[];
}

const STATUS_HINT: Partial<Record<ScopedUser['status'], string>> = {
  invited: 'invited',
  suspended: 'suspended',
};

/**
 * Choose a person of the portal: typing asks the server (GET portal/scopedUsers) by name or email.
 * The chosen person stays an option while the search changes.
 */
export function PersonSelect({ value, onChange, exclude = [], ...props }: PersonSelectProps) {
  const [search, setSearch] = useState('');
  const [chosen, setChosen] = useState<ScopedUser | null>(null);
  // Picking an option writes its name into the box: that is not a new search.
  const asked = chosen && search === chosen.name ? '' : search;
  const [debounced] = useDebouncedValue(asked, 250);
  const people = useScopedUsers(debounced);

  const found = (people.data ?? []).filter((person) => !exclude.includes(person._id));
  const byId = new Map(found.map((person) => [person._id, person]));
  if (chosen && chosen._id === value && !byId.has(chosen._id)) byId.set(chosen._id, chosen);
  const data = [...byId.values()].map((person) => ({ value: person._id, label: person.name }));

  return (
    <Select
      placeholder={people.isPending ? 'Loading…' : 'Search by name or email'}
      searchable
      clearable
      data={data}
      value={value}
      onSearchChange={setSearch}
      // The server has already matched name or email; the names shown need no second filter.
      filter={({ options }) => options}
      nothingFoundMessage={
        people.isPending ? 'Loading…' : people.error ? 'Could not load people' : 'Nobody matches'
      }
      renderOption={({ option }) => {
        const person = byId.get(option.value);
        const hint = person && STATUS_HINT[person.status];
        return (
          <Stack gap={0} style={{ minWidth: 0 }}>
            <Group gap={6} wrap="nowrap">
              <Text size="sm">{option.label}</Text>
              {hint && (
                <Text size="xs" c="dimmed">
                  ({hint})
                </Text>
              )}
            </Group>
            {person && person.email !== person.name && (
              <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                {person.email}
              </Text>
            )}
          </Stack>
        );
      }}
      onChange={(next) => {
        const person = next ? (byId.get(next) ?? null) : null;
        setChosen(person);
        onChange(next, person);
      }}
      comboboxProps={{ withinPortal: true }}
      {...props}
    />
  );
}
