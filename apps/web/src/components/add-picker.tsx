import { Button, Group, Select } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';

export interface PickerOption {
  value: string;
  label: string;
}

interface AddPickerProps {
  /** The select's label ("Person"). */
  label: string;
  placeholder?: string;
  /** What can still be added. */
  options: readonly PickerOption[];
  /** The button's label ("Give access"). */
  actionLabel: string;
  onAdd: (value: string) => Promise<unknown>;
  /** The options are still loading. */
  loading?: boolean;
  /** Shown in place of the picker when there is nothing left to add. */
  emptyText?: ReactNode;
  /** Shown when typing matches nothing ("Nobody matches"). */
  nothingFound?: string;
  /** Typing asks the server (large lists); the options then follow `onSearchChange`. */
  onSearchChange?: (search: string) => void;
}

/** Choose one of `options` and add it; the choice clears once added. */
export function AddPicker({
  label,
  placeholder,
  options,
  actionLabel,
  onAdd,
  loading = false,
  emptyText,
  nothingFound = 'Nothing matches',
  onSearchChange,
}: AddPickerProps) {
  const [value, setValue] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const nothingLeft = !loading && options.length === 0 && !onSearchChange;

  if (nothingLeft && emptyText) return <>{emptyText}</>;

  const add = async () => {
    if (!value) return;
    setAdding(true);
    try {
      await onAdd(value);
      setValue(null);
    } catch {
      // The caller tells the person what went wrong; the choice stays for another try.
    } finally {
      setAdding(false);
    }
  };

  return (
    <Group gap="sm" align="flex-end" wrap="wrap">
      <Select
        label={label}
        placeholder={loading ? 'Loading…' : placeholder}
        data={options as PickerOption[]}
        value={value}
        onChange={setValue}
        searchable
        clearable
        limit={50}
        nothingFoundMessage={loading ? 'Loading…' : nothingFound}
        onSearchChange={onSearchChange}
        disabled={nothingLeft}
        style={{ flex: '1 1 220px', minWidth: 0 }}
        comboboxProps={{ withinPortal: true }}
      />
      <Button
        onClick={() => void add()}
        disabled={!value}
        loading={adding}
        leftSection={<IconPlus size={16} aria-hidden="true" />}
      >
        {actionLabel}
      </Button>
    </Group>
  );
}
