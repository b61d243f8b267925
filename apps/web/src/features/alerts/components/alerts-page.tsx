import type { AlertRule, Notification } from '@latchkey/shared';
import { ActionIcon, Anchor, Badge, Button, Divider, Group, Stack, Switch, Text } from '@mantine/core';
import { notifications as toasts } from '@mantine/notifications';
import { IconBellOff, IconChecks, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { Fragment, useState } from 'react';
import { Link } from 'react-router';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { ListPagination } from '@/components/list-pagination';
import { PageHeader } from '@/components/page-header';
import { QueryError } from '@/components/query-error';
import { SectionCard } from '@/components/section-card';
import { TableSkeleton } from '@/components/table-skeleton';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/errors';
import { formatDateTime, formatRelative } from '@/lib/format';
import { useDeleteAlertRule } from '../api/delete-alert-rule';
import { useAlertRules } from '../api/get-alert-rules';
import { NOTIFICATIONS_PAGE_SIZE, useNotifications } from '../api/get-notifications';
import { useMarkNotificationsRead } from '../api/mark-notifications-read';
import { useSaveAlertRule } from '../api/save-alert-rule';
import { AlertRuleModal } from './alert-rule-modal';
import { describeRule, NOTIFICATION_KIND_LABELS } from './alert-text';
import { notificationHref } from './notification-href';

function NotificationItem({ item }: { item: Notification }) {
  return (
    <Stack gap={2}>
      <Group gap="xs" wrap="nowrap" justify="space-between" align="flex-start">
        <Group gap="xs" wrap="wrap" style={{ minWidth: 0 }}>
          {item.unread && (
            <Badge size="sm" color="red" variant="light">
              New
            </Badge>
          )}
          {/* What it is about links to where to act (a request, a lock's sync tab, billing). */}
          {item.subject ? (
            <Anchor
              component={Link}
              to={notificationHref(item)}
              size="sm"
              fw={item.unread ? 700 : 500}
              style={{ overflowWrap: 'anywhere' }}
            >
              {item.title}
            </Anchor>
          ) : (
            <Text size="sm" fw={item.unread ? 700 : 500} style={{ overflowWrap: 'anywhere' }}>
              {item.title}
            </Text>
          )}
        </Group>
        <Text
          size="xs"
          c="dimmed"
          component="time"
          dateTime={item.createdAt}
          title={formatDateTime(item.createdAt)}
          style={{ whiteSpace: 'nowrap' }}
        >
          {formatRelative(item.createdAt)}
        </Text>
      </Group>
      <Text size="sm">{item.message}</Text>
      <Text size="xs" c="dimmed">
        {NOTIFICATION_KIND_LABELS[item.kind]}
        {item.device && (
          <>
            {' · '}
            <Anchor component={Link} to={paths.app.device.href(item.device._id)} size="xs">
              {item.device.name}
            </Anchor>
          </>
        )}
      </Text>
    </Stack>
  );
}

function NotificationsCard() {
  const [page, setPage] = useState(1);
  const list = useNotifications(page);
  const markRead = useMarkNotificationsRead();
  const unread = list.data?.unread ?? 0;

  let body;
  if (list.isPending) body = <TableSkeleton rows={4} label="Loading the alerts" />;
  else if (list.error) {
    body = (
      <QueryError title="Could not load the alerts" error={list.error} onRetry={() => void list.refetch()} />
    );
  } else if (list.data.total === 0) {
    body = (
      <Stack align="center" gap={6} py="lg" ta="center">
        <IconBellOff size={32} stroke={1.4} aria-hidden="true" color="var(--mantine-color-dimmed)" />
        <Text fw={600}>No alerts yet</Text>
        <Text size="sm" c="dimmed" maw={440}>
          When a rule below fires (a lock tampered with, offline too long, a battery running low), it is
          listed here and shown to everyone on the portal&apos;s screens.
        </Text>
      </Stack>
    );
  } else {
    body = (
      <>
        <Stack
          component="ul"
          aria-label="Alerts"
          gap="sm"
          p={0}
          m={0}
          style={{ listStyle: 'none' }}
          opacity={list.isPlaceholderData ? 0.6 : 1}
        >
          {list.data.items.map((item, index) => (
            <Fragment key={item._id}>
              {index > 0 && <Divider component="li" aria-hidden="true" />}
              <li>
                <NotificationItem item={item} />
              </li>
            </Fragment>
          ))}
        </Stack>
        <ListPagination
          page={page}
          pageSize={NOTIFICATIONS_PAGE_SIZE}
          total={list.data.total}
          onChange={setPage}
          noun={list.data.total === 1 ? 'alert' : 'alerts'}
        />
      </>
    );
  }

  return (
    <SectionCard
      title="Alerts"
      description={unread > 0 ? `${unread} unread` : 'Everything read'}
      aside={
        <Button
          size="xs"
          variant="default"
          leftSection={<IconChecks size={16} aria-hidden="true" />}
          disabled={unread === 0}
          loading={markRead.isPending}
          onClick={() =>
            markRead.mutate(undefined, {
              onError: (error) =>
                toasts.show({
                  color: 'red',
                  title: 'Could not mark the alerts read',
                  message: errorMessage(error),
                }),
            })
          }
        >
          Mark all as read
        </Button>
      }
    >
      {body}
    </SectionCard>
  );
}

function RuleRow({ rule, onEdit, onDelete }: { rule: AlertRule; onEdit: () => void; onDelete: () => void }) {
  const save = useSaveAlertRule();
  const toggle = (enabled: boolean) =>
    save.mutate(
      {
        ruleId: rule._id,
        kind: rule.kind,
        name: rule.name,
        enabled,
        email: rule.email,
        deviceIds: rule.devices.map((device) => device._id),
        minutes: rule.minutes,
        count: rule.count,
        userId: rule.user?._id ?? null,
      },
      {
        onError: (error) =>
          toasts.show({ color: 'red', title: `Could not change ${rule.name}`, message: errorMessage(error) }),
      },
    );
  return (
    <Group justify="space-between" wrap="nowrap" align="flex-start" gap="sm">
      <Stack gap={2} style={{ minWidth: 0 }}>
        <Text size="sm" fw={600} c={rule.enabled ? undefined : 'dimmed'} style={{ overflowWrap: 'anywhere' }}>
          {rule.name}
        </Text>
        <Text size="sm" c="dimmed">
          {describeRule(rule)}
          {rule.email ? ' Mailed to the admins.' : ''}
        </Text>
      </Stack>
      <Group gap={6} wrap="nowrap">
        <Switch
          aria-label={`${rule.name} on`}
          checked={rule.enabled}
          disabled={save.isPending}
          onChange={(event) => toggle(event.currentTarget.checked)}
        />
        <ActionIcon variant="subtle" color="gray" aria-label={`Edit ${rule.name}`} onClick={onEdit}>
          <IconPencil size={18} aria-hidden="true" />
        </ActionIcon>
        <ActionIcon variant="subtle" color="red" aria-label={`Delete ${rule.name}`} onClick={onDelete}>
          <IconTrash size={18} aria-hidden="true" />
        </ActionIcon>
      </Group>
    </Group>
  );
}

function RulesCard() {
  const rules = useAlertRules();
  const remove = useDeleteAlertRule();
  const [editing, setEditing] = useState<AlertRule | 'new' | null>(null);
  const [deleting, setDeleting] = useState<AlertRule | null>(null);

  let body;
  if (rules.isPending) body = <TableSkeleton rows={3} label="Loading the rules" />;
  else if (rules.error) {
    body = (
      <QueryError title="Could not load the rules" error={rules.error} onRetry={() => void rules.refetch()} />
    );
  } else if (rules.data.length === 0) {
    body = (
      <Text size="sm" c="dimmed">
        No rules: nothing raises an alert. Add one to hear about tampering, low batteries or locks that go
        quiet.
      </Text>
    );
  } else {
    body = (
      <Stack component="ul" aria-label="Alert rules" gap="sm" p={0} m={0} style={{ listStyle: 'none' }}>
        {rules.data.map((rule, index) => (
          <Fragment key={rule._id}>
            {index > 0 && <Divider component="li" aria-hidden="true" />}
            <li>
              <RuleRow rule={rule} onEdit={() => setEditing(rule)} onDelete={() => setDeleting(rule)} />
            </li>
          </Fragment>
        ))}
      </Stack>
    );
  }

  return (
    <SectionCard
      title="Rules"
      description="What raises an alert, where, and who gets mail."
      aside={
        <Button
          size="xs"
          leftSection={<IconPlus size={16} aria-hidden="true" />}
          onClick={() => setEditing('new')}
        >
          Add a rule
        </Button>
      }
    >
      {body}
      {editing !== null && (
        <AlertRuleModal
          opened
          onClose={() => setEditing(null)}
          rule={editing === 'new' ? undefined : editing}
        />
      )}
      <ConfirmDialog
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title="Delete this rule?"
        confirmLabel="Delete rule"
        loading={remove.isPending}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting._id, {
            onSuccess: () => setDeleting(null),
            onError: (error) =>
              toasts.show({ color: 'red', title: 'Could not delete the rule', message: errorMessage(error) }),
          })
        }
      >
        {`${deleting?.name ?? 'The rule'} stops raising alerts. The alerts it raised stay in the list.`}
      </ConfirmDialog>
    </SectionCard>
  );
}

/** /app/notificationAndAlert (admin): the portal's alerts with read state, and the rules behind them. */
export function AlertsPage() {
  return (
    <Stack gap="lg" maw={900}>
      <PageHeader
        title="Alerts"
        description="What the portal's rules caught at your locks, newest first. Alerts also pop up on every admin's screen as they happen."
      />
      <NotificationsCard />
      <RulesCard />
    </Stack>
  );
}
