import { SEARCH_KINDS, type SearchResult } from '@latchkey/shared';
import { Badge, Group, Loader, Modal, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useNavigate } from 'react-router';
import { errorMessage } from '@/lib/errors';
import { MIN_SEARCH_LENGTH, usePortalSearch } from '../api/search-portal';
import { KIND_LABELS, resultPath } from './result-path';
import classes from './search-palette.module.css';

interface SearchPaletteProps {
  opened: boolean;
  onClose: () => void;
}

/**
 * The command-palette search (issue 19, item 7): type a few characters of a name, an email, a card
 * number, a guest or a bill number; arrows move through the results, Enter opens one. A combobox
 * over a listbox (WAI-ARIA), so a screen reader hears the active result as the arrows move.
 */
export function SearchPalette({ opened, onClose }: SearchPaletteProps) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title="Search the portal"
      size="lg"
      yOffset="10vh"
      classNames={{ body: classes.body }}
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {/* Mounted only while open: each opening starts from an empty box. */}
      <PaletteBody onClose={onClose} />
    </Modal>
  );
}

function PaletteBody({ onClose }: { onClose: () => void }) {
  const [text, setText] = useState('');
  const [debounced] = useDebouncedValue(text, 200);
  const search = usePortalSearch(debounced);
  const navigate = useNavigate();
  const listId = useId();
  const optionId = (index: number) => `${listId}-option-${index}`;
  // The active result, by its place in the results it was chosen among: new results start at the top.
  const [cursor, setCursor] = useState({ of: '', index: 0 });
  const listRef = useRef<HTMLDivElement>(null);

  const term = debounced.trim();
  const asked = term.length >= MIN_SEARCH_LENGTH;
  const results = useMemo(() => (asked ? (search.data?.results ?? []) : []), [asked, search.data]);
  // Results in the order they are shown (by kind), each with its place for the arrow keys.
  const { groups, ordered } = useMemo(() => {
    const sorted = SEARCH_KINDS.flatMap((kind) => results.filter((r) => r.kind === kind));
    return {
      ordered: sorted,
      groups: SEARCH_KINDS.map((kind) => ({
        kind,
        items: sorted
          .map((result, place) => ({ result, place }))
          .filter(({ result }) => result.kind === kind),
      })).filter((group) => group.items.length > 0),
    };
  }, [results]);
  const resultsKey = ordered.map((r) => `${r.kind}:${r._id}`).join(' ');
  const active = cursor.of === resultsKey ? cursor.index : 0;
  const setActive = (next: (index: number) => number) => setCursor({ of: resultsKey, index: next(active) });

  useEffect(() => {
    listRef.current?.querySelector(`#${CSS.escape(optionId(active))}`)?.scrollIntoView({ block: 'nearest' });
    // optionId depends on listId only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [active]);

  const open = (result: SearchResult) => {
    onClose();
    void navigate(resultPath(result));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (ordered.length === 0) return;
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setActive((index) => (index + 1) % ordered.length);
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((index) => (index - 1 + ordered.length) % ordered.length);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const chosen = ordered[active];
      if (chosen) open(chosen);
    }
  };

  let status: string;
  if (!asked) status = `Type at least ${MIN_SEARCH_LENGTH} characters.`;
  else if (search.isError) status = `Could not search: ${errorMessage(search.error)}`;
  else if (search.isPending) status = 'Searching…';
  else if (ordered.length === 0) status = `Nothing matches “${term}”.`;
  else
    status = `${ordered.length} ${ordered.length === 1 ? 'result' : 'results'}. Arrows to move, Enter to open.`;

  return (
    <>
      <TextInput
        data-autofocus
        value={text}
        onChange={(event) => setText(event.currentTarget.value)}
        onKeyDown={onKeyDown}
        placeholder="People, locks, cards, listings, guests, bills…"
        aria-label="Search people, locks, cards, listings, stays and bills"
        leftSection={<IconSearch size={18} aria-hidden="true" />}
        rightSection={search.isFetching && asked ? <Loader size="xs" /> : null}
        role="combobox"
        aria-expanded={ordered.length > 0}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={ordered.length > 0 ? optionId(active) : undefined}
        autoComplete="off"
        spellCheck={false}
        maxLength={100}
      />
      <Text size="sm" c="dimmed" mt="xs" role="status" aria-live="polite">
        {status}
      </Text>
      <div ref={listRef} id={listId} role="listbox" aria-label="Results" className={classes.list}>
        {groups.map((group) => (
          <div key={group.kind} role="group" aria-label={KIND_LABELS[group.kind]}>
            <Text size="xs" fw={700} c="dimmed" tt="uppercase" mt="sm" mb={4} aria-hidden="true">
              {KIND_LABELS[group.kind]}
            </Text>
            {group.items.map(({ result, place: mine }) => {
              const selected = mine === active;
              return (
                <UnstyledButton
                  key={`${result.kind}-${result._id}`}
                  id={optionId(mine)}
                  role="option"
                  aria-selected={selected}
                  tabIndex={-1}
                  className={classes.option}
                  data-active={selected || undefined}
                  onMouseMove={() => setActive(() => mine)}
                  onClick={() => open(result)}
                >
                  <Stack gap={0} style={{ minWidth: 0 }}>
                    <Text size="sm" fw={600} truncate>
                      {result.title}
                    </Text>
                    <Text size="xs" c="dimmed" truncate>
                      {result.detail}
                    </Text>
                  </Stack>
                </UnstyledButton>
              );
            })}
          </div>
        ))}
      </div>
      <Group gap="xs" mt="sm" visibleFrom="sm" aria-hidden="true">
        <Badge variant="default" size="sm">
          ↑ ↓
        </Badge>
        <Text size="xs" c="dimmed">
          move
        </Text>
        <Badge variant="default" size="sm">
          Enter
        </Badge>
        <Text size="xs" c="dimmed">
          open
        </Text>
        <Badge variant="default" size="sm">
          Esc
        </Badge>
        <Text size="xs" c="dimmed">
          close
        </Text>
      </Group>
    </>
  );
}
