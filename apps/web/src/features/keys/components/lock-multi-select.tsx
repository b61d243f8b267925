import { MultiSelect, type MultiSelectProps } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { useLockOptions } from '@/features/devices/api/get-devices';

interface LockMultiSelectProps extends Omit<
  MultiSelectProps,
  'data' | 'value' | 'onChange' | 'searchable' | 'onSearchChange' | 'filter'
> {
  value: string[];
  onChange: (deviceIds: string[]) => void;
}

/** Choose locks of the portal: typing asks the server by name; chosen locks stay shown. */
export function LockMultiSelect({ value, onChange, ...props }: LockMultiSelectProps) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const locks = useLockOptions(debounced);
  // Names of the chosen locks, so they stay labelled when a new search leaves them out.
  const [chosen, setChosen] = useState<ReadonlyMap<string, string>>(new Map());

  const names = new Map(chosen);
  for (const lock of locks.data?.items ?? []) names.set(lock._id, lock.name);
  const data = [...names].map(([id, name]) => ({ value: id, label: name }));

  return (
    <MultiSelect
      data={data}
      value={value}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      // The server has matched the name already.
      filter={({ options }) => options}
      hidePickedOptions
      clearable
      nothingFoundMessage={
        locks.isPending ? 'Loading locks…' : locks.error ? 'Could not load locks' : 'No lock matches'
      }
      comboboxProps={{ withinPortal: true }}
      onChange={(ids) => {
        setChosen(new Map(ids.map((id) => [id, names.get(id) ?? id])));
        onChange(ids);
      }}
      {...props}
    />
  );
}
