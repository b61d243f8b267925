import type { Notification } from '@latchkey/shared';
import {
  ActionIcon,
  Anchor,
  Badge,
  Box,
  Group,
  Popover,
  ScrollArea,
  Stack,
  Text,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconBell } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { QueryError } from '@/components/query-error';
import { paths } from '@/config/paths';
import { formatDateTime, formatRelative } from '@/lib/format';
import { useNotifications } from '../api/get-notifications';
import { useMarkNotificationsRead } from '../api/mark-notifications-read';
import { NOTIFICATION_KIND_LABELS } from './alert-text';
import { notificationHref } from './notification-href';

/** How many of the latest notifications the popover lists (the alerts screen has them all). */
export const BELL_LIST_SIZE = 8;

function NotificationItem({
  notification,
  isNew,
  onOpen,
}: {
  notification: Notification;
  /** Unread when the bell was opened (opening it reads them, but they stay marked while it is open). */
  isNew: boolean;
  onOpen: () => void;
}) {
  return (
    <UnstyledButton
      component={Link}
      to={notificationHref(notification)}
      onClick={onOpen}
      p="xs"
      style={{
        display: 'block',
        borderRadius: 'var(--mantine-radius-sm)',
        background: isNew ? 'var(--mantine-primary-color-light)' : undefined,
      }}
    >
      <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
        <Text size="sm" fw={isNew ? 700 : 500} lineClamp={2} style={{ minWidth: 0 }}>
          {isNew && <VisuallyHidden>Unread: </VisuallyHidden>}
          {notification.title}
        </Text>
        <Text
          size="xs"
          c="dimmed"
          component="time"
          dateTime={notification.createdAt}
          title={formatDateTime(notification.createdAt)}
          style={{ whiteSpace: 'nowrap' }}
        >
          {formatRelative(notification.createdAt)}
        </Text>
      </Group>
      <Text size="xs" c="dimmed" lineClamp={2}>
        {NOTIFICATION_KIND_LABELS[notification.kind]} · {notification.message}
      </Text>
    </UnstyledButton>
  );
}

/**
 * The operator's bell (issue 19, item 3): how many notifications they have not read, and the latest
 * ones, each linking to where to act. The live channel refetches it when one is raised, so a guest's
 * request shows within seconds without a reload. Opening it reads what it shows: the count goes,
 * and what was new stays marked until it closes (as in a mail app's inbox). What still waits for an
 * answer is the dashboard's "Needs your answer", not an unread count.
 */
export function NotificationBell() {
  const [opened, { toggle, close }] = useDisclosure(false);
  const { data, error, refetch } = useNotifications(1);
  const markRead = useMarkNotificationsRead();
  const [newWhenOpened, setNewWhenOpened] = useState<ReadonlySet<string>>(() => new Set());
  const unread = data?.unread ?? 0;
  const label = unread > 0 ? `Notifications, ${unread} unread` : 'Notifications';
  const items = data?.items.slice(0, BELL_LIST_SIZE) ?? [];
  const openOrClose = () => {
    if (!opened) {
      setNewWhenOpened(new Set(items.filter((item) => item.unread).map((item) => item._id)));
      if (unread > 0) markRead.mutate();
    }
    toggle();
  };

  return (
    // The count sits over the bell as a badge outside the button: the button's name already says it.
    <Box pos="relative" style={{ display: 'inline-flex' }}>
      <Popover
        opened={opened}
        onChange={(open) => (open ? undefined : close())}
        position="bottom-end"
        width={360}
        shadow="md"
        withArrow
        trapFocus
      >
        <Popover.Target>
          <ActionIcon
            variant="subtle"
            color="gray"
            size="lg"
            aria-label={label}
            title={label}
            onClick={openOrClose}
          >
            <IconBell size={20} stroke={1.7} aria-hidden="true" />
          </ActionIcon>
        </Popover.Target>
        <Popover.Dropdown p="xs" maw="calc(100vw - 16px)">
          <Text fw={700} size="sm" px="xs" pb="xs">
            Notifications
          </Text>
          {error ? (
            <Box p="xs">
              <QueryError title="Could not load notifications" error={error} onRetry={() => void refetch()} />
            </Box>
          ) : items.length === 0 ? (
            <Text size="sm" c="dimmed" p="xs">
              {data
                ? 'Nothing yet. Requests from guests and problems with locks or payments show here.'
                : 'Loading…'}
            </Text>
          ) : (
            <ScrollArea.Autosize mah={420} type="auto">
              <Stack gap={2}>
                {items.map((notification) => (
                  <NotificationItem
                    key={notification._id}
                    notification={notification}
                    isNew={notification.unread || newWhenOpened.has(notification._id)}
                    onOpen={close}
                  />
                ))}
              </Stack>
            </ScrollArea.Autosize>
          )}
          <Box px="xs" pt="xs" style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
            <Anchor component={Link} to={paths.app.alerts.href()} size="sm" onClick={close}>
              All notifications and alert rules
            </Anchor>
          </Box>
        </Popover.Dropdown>
      </Popover>
      {unread > 0 && (
        <Badge
          size="xs"
          color="red"
          variant="filled"
          circle={unread < 10}
          aria-hidden="true"
          pos="absolute"
          top={-4}
          right={-6}
          style={{ pointerEvents: 'none' }}
        >
          {unread > 99 ? '99+' : unread}
        </Badge>
      )}
    </Box>
  );
}
