import type { PortalDashboard } from '@latchkey/shared';
import {
  Anchor,
  Badge,
  Button,
  EmptyState,
  Group,
  SimpleGrid,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import {
  IconBattery1,
  IconBattery2,
  IconBatteryOff,
  IconCircleCheck,
  IconLock,
  IconLockPlus,
} from '@tabler/icons-react';
import { useId, type ReactNode } from 'react';
import { Link } from 'react-router';
import { SectionCard } from '@/components/section-card';
import { paths } from '@/config/paths';
import { formatDateTime, formatRelative } from '@/lib/format';

type DashboardDevice = PortalDashboard['offline'][number];

/** "Never connected", "Last seen 3 hours ago" (a clock a little ahead says "just now"). */
function LastSeenText({ lastSeenAt }: { lastSeenAt: string | null }) {
  if (!lastSeenAt) {
    return (
      <Text size="sm" c="dimmed" component="span">
        Never connected
      </Text>
    );
  }
  const relative = formatRelative(lastSeenAt);
  return (
    <Text size="sm" c="dimmed" component="span">
      Last seen{' '}
      <time dateTime={lastSeenAt} title={formatDateTime(lastSeenAt)}>
        {relative === 'now' || relative.startsWith('in ') ? 'just now' : relative}
      </time>
    </Text>
  );
}

/** The battery of a lock that runs low (every lock in this list does): red, with its level. */
function BatteryText({ battery }: { battery: number | null }) {
  if (battery === null) {
    return (
      <Group gap={4} wrap="nowrap" c="dimmed" component="span">
        <IconBatteryOff size={18} stroke={1.6} aria-hidden="true" />
        <Text size="sm" c="dimmed" component="span">
          Unknown
        </Text>
      </Group>
    );
  }
  const BatteryIcon = battery >= 25 ? IconBattery2 : IconBattery1;
  return (
    <Group gap={4} wrap="nowrap" c="red" component="span">
      <BatteryIcon size={18} stroke={1.6} aria-hidden="true" />
      <Text size="sm" c="red" fw={600} component="span">
        {battery}%
      </Text>
    </Group>
  );
}

interface DeviceListProps {
  title: string;
  /** How many locks are in this state in all (the list holds at most ten of them). */
  total: number;
  devices: DashboardDevice[];
  /** What each lock shows beside its name. */
  detail: (device: DashboardDevice) => ReactNode;
  /** Said when no lock is in this state. */
  allClear: string;
  color: string;
}

/** One short list of locks in a state (offline, low battery), with a count and an all-clear. */
function DeviceList({ title, total, devices, detail, allClear, color }: DeviceListProps) {
  const id = useId();
  const more = total - devices.length;
  return (
    <Stack component="section" aria-labelledby={id} gap="xs" style={{ minWidth: 0 }}>
      <Group gap="xs" wrap="nowrap">
        <Title order={3} fz="md" id={id}>
          {title}
        </Title>
        {total > 0 && (
          <Badge size="sm" variant="light" color={color} circle={total < 10}>
            {total}
          </Badge>
        )}
      </Group>
      {devices.length === 0 ? (
        <Group gap="xs" wrap="nowrap" py="xs">
          <ThemeIcon variant="light" color="teal" size={28} radius="xl" aria-hidden="true">
            <IconCircleCheck size={18} stroke={1.8} />
          </ThemeIcon>
          <Text size="sm" c="dimmed">
            {allClear}
          </Text>
        </Group>
      ) : (
        <Stack component="ul" gap={0} m={0} p={0} style={{ listStyle: 'none' }}>
          {devices.map((device) => (
            <Group
              key={device._id}
              component="li"
              justify="space-between"
              wrap="nowrap"
              gap="sm"
              py={8}
              style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
            >
              <Anchor
                component={Link}
                to={paths.app.device.href(device._id)}
                size="sm"
                fw={600}
                truncate="end"
                title={device.name}
                style={{ minWidth: 0 }}
              >
                {device.name}
              </Anchor>
              {/* A flex box, so that both kinds of detail give their rows the same height. */}
              <div style={{ display: 'flex', flexShrink: 0, whiteSpace: 'nowrap' }}>{detail(device)}</div>
            </Group>
          ))}
        </Stack>
      )}
      {more > 0 && (
        <Text size="sm" c="dimmed">
          and {more} more ·{' '}
          <Anchor component={Link} to={paths.app.devices.href()} size="sm">
            See all locks
          </Anchor>
        </Text>
      )}
    </Stack>
  );
}

/** Until the portal has a lock, there is nothing to watch: invite to add one. */
function NoLocks() {
  return (
    <EmptyState variant="light" py="lg">
      <EmptyState.Indicator>
        <IconLock size={28} aria-hidden="true" />
      </EmptyState.Indicator>
      <EmptyState.Title order={3}>No locks yet</EmptyState.Title>
      <EmptyState.Description>
        Add your first lock. Locks that go offline or run low on batteries will show up here.
      </EmptyState.Description>
      <EmptyState.Actions>
        <Button
          component={Link}
          to={paths.app.devices.href()}
          leftSection={<IconLockPlus size={18} aria-hidden="true" />}
        >
          Add your first lock
        </Button>
      </EmptyState.Actions>
    </EmptyState>
  );
}

/** The locks that need someone to look at them: offline ones and ones running low on batteries. */
export function NeedsAttention({ dashboard }: { dashboard: PortalDashboard }) {
  const { counts, offline, lowBattery } = dashboard;
  return (
    <SectionCard
      title="Needs attention"
      description={counts.devices > 0 ? 'Locks that are offline or running low on batteries.' : undefined}
    >
      {counts.devices === 0 ? (
        <NoLocks />
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xl" verticalSpacing="lg">
          <DeviceList
            title="Offline"
            total={counts.offline}
            devices={offline}
            detail={(device) => <LastSeenText lastSeenAt={device.lastSeenAt} />}
            allClear="All locks are online"
            color="orange"
          />
          <DeviceList
            title="Low battery"
            total={counts.lowBattery}
            devices={lowBattery}
            detail={(device) => <BatteryText battery={device.battery} />}
            allClear="No batteries running low"
            color="red"
          />
        </SimpleGrid>
      )}
    </SectionCard>
  );
}
