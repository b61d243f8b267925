import { MultiSelect, type MultiSelectProps } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { useLockOptions } from '@/features/devices/api/get-devices';

interface Lock {
  name: string;
  timeZone: string | null;
}

interface LockMultiSelectProps extends Omit<
  MultiSelectProps,
  'data' | 'value' | 'onChange' | 'searchable' | 'onSearchChange' | 'filter'
> {
  value: string[];
  onChange: (deviceIds: string[]) => void;
  /** The chosen locks' time zones, in the order chosen: whose clock the key's times are on. */
  onZonesChange?: (timeZones: string[]) => void;
}

/** Choose locks of the portal: typing asks the server by name; chosen locks stay shown. */
export function LockMultiSelect({ value, onChange, onZonesChange, ...props }: LockMultiSelectProps) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const locks = useLockOptions(debounced);
  // The chosen locks, so they stay labelled when a new search leaves them out.
  const [chosen, setChosen] = useState<ReadonlyMap<string, Lock>>(new Map());

  const known = new Map(chosen);
  for (const lock of locks.data?.items ?? [])
    known.set(lock._id, { name: lock.name, timeZone: lock.timeZone });
  const data = [...known].map(([id, lock]) => ({ value: id, label: lock.name }));

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
        const next = new Map(ids.map((id) => [id, known.get(id) ?? { name: id, timeZone: null }]));
        setChosen(next);
        onChange(ids);
        onZonesChange?.([...next.values()].flatMap((lock) => (lock.timeZone ? [lock.timeZone] : [])));
      }}
      {...props}
    />
  );
}
