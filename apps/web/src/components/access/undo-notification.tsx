import { Button, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { errorMessage } from '@/lib/errors';

/** How long the Undo button stays: long enough to notice a slip, short enough not to linger. */
export const UNDO_MS = 10_000;

let next = 0;

interface UndoableChange {
  title: string;
  message: string;
  /** Puts things back as they were (access with its schedule); it may throw. */
  undo: () => Promise<unknown>;
  /** Said once undone ("Grace Hopper can open Front door again"). */
  undone: string;
}

/**
 * A done change with an Undo button for UNDO_MS: a removal happens at once (the lock gets its new
 * set), and Undo gives back exactly what was there, so a slip costs one click, not a rebuild of
 * the schedule. The screen passes the call that restores; shared parts call no endpoint.
 */
export function notifyUndoable({ title, message, undo, undone }: UndoableChange) {
  const id = `undo-${++next}`;
  const onUndo = async () => {
    notifications.hide(id);
    try {
      await undo();
      notifications.show({ color: 'teal', title: 'Undone', message: undone });
    } catch (error) {
      notifications.show({ color: 'red', title: 'Could not undo', message: errorMessage(error) });
    }
  };
  notifications.show({
    id,
    color: 'teal',
    title,
    autoClose: UNDO_MS,
    message: (
      <Stack gap={6}>
        <Text size="sm">{message}</Text>
        <Group gap="xs">
          <Button size="compact-sm" variant="light" onClick={() => void onUndo()}>
            Undo
          </Button>
        </Group>
      </Stack>
    ),
  });
}
