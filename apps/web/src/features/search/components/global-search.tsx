import { Button, Kbd, Tooltip, ActionIcon } from '@mantine/core';
import { useDisclosure, useHotkeys } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';

// The palette (a modal over a combobox and its search call) is not needed to paint a page: its
// code loads when the person first opens it, keeping it out of every screen's first load.
const SearchPalette = lazy(async () => ({ default: (await import('./search-palette')).SearchPalette }));

/** Whether this browser's shortcut key is ⌘ (Apple) or Ctrl. */
const isApple = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

/**
 * The operator header's search: a button (an icon on phones) and the shortcuts Ctrl+K / ⌘K and "/"
 * (not while typing in a field), each opening the search palette.
 */
export function GlobalSearch() {
  const [opened, { open: show, close }] = useDisclosure(false);
  // Once opened the palette stays mounted, so closing it animates and gives focus back as it should.
  const [wanted, setWanted] = useState(false);
  const open = () => {
    setWanted(true);
    show();
  };
  useHotkeys([
    ['mod+K', open],
    ['/', open],
  ]);
  const shortcut = isApple ? '⌘K' : 'Ctrl K';
  return (
    <>
      <Button
        variant="default"
        visibleFrom="sm"
        leftSection={<IconSearch size={16} aria-hidden="true" />}
        rightSection={<Kbd size="xs">{shortcut}</Kbd>}
        onClick={open}
        aria-keyshortcuts={isApple ? 'Meta+K /' : 'Control+K /'}
        fw={400}
      >
        Search
      </Button>
      <Tooltip label="Search">
        <ActionIcon variant="default" size="lg" hiddenFrom="sm" onClick={open} aria-label="Search">
          <IconSearch size={18} aria-hidden="true" />
        </ActionIcon>
      </Tooltip>
      {wanted && (
        <Suspense fallback={null}>
          <SearchPalette opened={opened} onClose={close} />
        </Suspense>
      )}
    </>
  );
}
