import { CloseButton, TextInput, type TextInputProps } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';

interface SearchInputProps extends Omit<TextInputProps, 'value' | 'onChange'> {
  /** The search the list currently shows. */
  value: string;
  /** Called once typing pauses (and at once on clear or Enter). */
  onSearch: (value: string) => void;
  delay?: number;
}

/** A search box that asks the server only once the person stops typing. */
export function SearchInput({ value, onSearch, delay = 300, label = 'Search', ...props }: SearchInputProps) {
  const [text, setText] = useState(value);
  const debounced = useDebouncedCallback(onSearch, delay);

  // The list's search can change elsewhere (Back, a link): show it.
  const [shown, setShown] = useState(value);
  if (value !== shown) {
    setShown(value);
    if (value !== text.trim()) setText(value);
  }

  return (
    <TextInput
      type="search"
      label={label}
      value={text}
      onChange={(event) => {
        setText(event.currentTarget.value);
        debounced(event.currentTarget.value);
      }}
      onKeyDown={(event) => {
        if (event.key === 'Enter') {
          event.preventDefault();
          debounced.cancel();
          onSearch(text);
        }
      }}
      leftSection={<IconSearch size={16} aria-hidden="true" />}
      rightSection={
        text ? (
          <CloseButton
            size="sm"
            aria-label="Clear search"
            onClick={() => {
              setText('');
              debounced.cancel();
              onSearch('');
            }}
          />
        ) : null
      }
      {...props}
    />
  );
}
