import { Group, Select, type ComboboxData } from '@mantine/core';
import { accessibleClearButton } from '@/lib/clear-button';
import { SearchInput } from './search-input';

/** A list's narrowing choice, kept in the address under `param` like the search. */
interface ListFilter {
  param: string;
  label: string;
  /** Shown when nothing is chosen: what the whole list holds ("All models"). */
  placeholder: string;
  data: ComboboxData;
  value: string | null;
  width?: number;
}

interface ListFiltersProps {
  /** The list's `useListParams`: the search and filter live in the address. */
  list: {
    search: string;
    setSearch: (search: string) => void;
    setParam: (key: string, value: string | null) => void;
  };
  searchLabel: string;
  searchPlaceholder: string;
  filter?: ListFilter;
}

/** The bar above a paged list: a search box and, where the list has one, a filter. */
export function ListFilters({ list, searchLabel, searchPlaceholder, filter }: ListFiltersProps) {
  return (
    <Group gap="sm" mb="md" align="flex-end" wrap="wrap">
      <SearchInput
        label={searchLabel}
        placeholder={searchPlaceholder}
        value={list.search}
        onSearch={list.setSearch}
        style={{ flex: '1 1 240px' }}
      />
      {filter && (
        <Select
          label={filter.label}
          placeholder={filter.placeholder}
          data={filter.data}
          value={filter.value}
          onChange={(value) => list.setParam(filter.param, value)}
          clearable
          clearButtonProps={accessibleClearButton(`Clear ${filter.label.toLowerCase()}`)}
          comboboxProps={{ withinPortal: true }}
          style={{ flex: `0 1 ${filter.width ?? 200}px` }}
        />
      )}
    </Group>
  );
}
