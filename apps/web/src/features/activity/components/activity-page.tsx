import {
  ACTIVITY_KINDS,
  addDaysToDate,
  formatSpokenDate,
  localWallTime,
  type ActivityFilters,
  type ActivityItem,
  type ActivityKind,
  type AuditEntry,
} from '@latchkey/shared';
import {
  Anchor,
  Badge,
  Button,
  Divider,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { IconActivity, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { Fragment, useId, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { EmptyList } from '@/components/empty-list';
import { ExportCsvButton } from '@/components/export-csv-button';
import { DeviceEventIcon } from '@/components/events/device-event-icon';
import { PageHeader } from '@/components/page-header';
import { QueryError } from '@/components/query-error';
import { TableSkeleton } from '@/components/table-skeleton';
import { paths } from '@/config/paths';
import { actionText, entityName } from '@/lib/audit-text';
import { EVENT_LABELS, eventSentence } from '@/lib/device-events';
import { formatDateTime, formatTime } from '@/lib/format';
import { currentPortalTimeZone } from '@/lib/zoned-time';
import { useLockOptions } from '@/features/devices/api/get-devices';
import { PersonSelect } from '@/features/people-picker/components/person-select';
import { exportActivityCsv } from '../api/export-activity';
import { useActivity } from '../api/get-activity';
import { ZoneFilter } from '@/features/zones/components/zone-filter';

/** The kinds the feed narrows to, as people say them. */
const KIND_LABELS: Record<ActivityKind, string> = {
  change: 'Admin changes',
  command: 'Remote unlock or lock',
  ...EVENT_LABELS,
};
const KIND_OPTIONS = ACTIVITY_KINDS.map((kind) => ({ value: kind, label: KIND_LABELS[kind] }));

/** What a remote command came to, in words and colour. */
const COMMAND_OUTCOMES = {
  ok: { label: 'done', color: 'teal' },
  pending: { label: 'waiting for the lock', color: 'gray' },
  failed: { label: 'failed', color: 'red' },
  expired: { label: 'no answer', color: 'orange' },
} as const;

/** The portal's calendar day of an instant, 'YYYY-MM-DD': the feed's days are the portal's. */
function dayKey(date: Date): string {
  return localWallTime(date, currentPortalTimeZone()).date;
}

/** "Today", "Yesterday" or "Monday, November 23, 2026". */
function dayLabel(key: string, now: Date): string {
  const today = dayKey(now);
  if (key === today) return 'Today';
  if (key === addDaysToDate(today, -1)) return 'Yesterday';
  return formatSpokenDate(key);
}

interface Day {
  key: string;
  items: ActivityItem[];
}

/** Items (newest first) grouped by the portal's calendar day. */
function byDay(items: readonly ActivityItem[]): Day[] {
  const days: Day[] = [];
  for (const item of items) {
    const key = dayKey(new Date(item.at));
    const last = days[days.length - 1];
    if (last && last.key === key) last.items.push(item);
    else days.push({ key, items: [item] });
  }
  return days;
}

const itemKey = (item: ActivityItem) =>
  item.source === 'change' ? `change-${item.change._id}` : `event-${item.event._id}`;

function ChangeIcon({ entry }: { entry: AuditEntry }) {
  const verb = entry.action.split('.').pop() ?? '';
  const [Icon, color] = ['create', 'add', 'grant'].includes(verb)
    ? [IconPlus, 'teal']
    : ['delete', 'remove', 'revoke'].includes(verb)
      ? [IconTrash, 'red']
      : [IconPencil, 'gray'];
  return (
    <ThemeIcon variant="light" color={color} radius="xl" aria-hidden="true">
      <Icon size={16} stroke={1.8} />
    </ThemeIcon>
  );
}

function When({ at }: { at: string }) {
  return (
    <time dateTime={at} title={formatDateTime(at)}>
      {formatTime(at)}
    </time>
  );
}

function ActivityRow({ item }: { item: ActivityItem }) {
  if (item.source === 'change') {
    const entry = item.change;
    // The lock and the person the change is about are links, by the names they have now; the
    // entry names the rest (a group, a listing, a stay's guest, the guest of a lock's invite).
    const aboutLinkedRecord =
      (entry.entityType === 'device' && item.device) || (entry.entityType === 'member' && item.person);
    const name = aboutLinkedRecord
      ? null
      : entityName(entry, [
          ...(item.device ? ['device' as const] : []),
          ...(item.person ? ['user' as const] : []),
        ]);
    const outcome = item.command ? COMMAND_OUTCOMES[item.command.status] : null;
    return (
      <Group gap="sm" py="xs" wrap="nowrap" align="flex-start">
        <ChangeIcon entry={entry} />
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {actionText(entry.action)}
            {name ? `: ${name}` : ''}
            {item.device && (
              <>
                {' · '}
                <Anchor component={Link} to={paths.app.device.href(item.device._id)} size="sm">
                  {item.device.name}
                </Anchor>
              </>
            )}
            {item.person && (
              <>
                {' · '}
                <Anchor component={Link} to={paths.app.member.href(item.person._id)} size="sm">
                  {item.person.name}
                </Anchor>
              </>
            )}
            {outcome && (
              <>
                {' '}
                <Badge size="sm" variant="light" color={outcome.color}>
                  {outcome.label}
                  {item.command?.error ? `: ${item.command.error}` : ''}
                </Badge>
              </>
            )}
          </Text>
          <Text size="xs" c="dimmed">
            <When at={item.at} /> · by {entry.actor ? entry.actor.name || entry.actor.email : 'the system'}
          </Text>
        </Stack>
      </Group>
    );
  }
  const { event } = item;
  return (
    <Group gap="sm" py="xs" wrap="nowrap" align="flex-start">
      <DeviceEventIcon type={event.type} />
      <Stack gap={2} style={{ minWidth: 0 }}>
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {eventSentence(event)}
        </Text>
        <Text size="xs" c="dimmed">
          <When at={item.at} /> ·{' '}
          <Anchor component={Link} to={paths.app.device.href(event.device._id)} size="xs">
            {event.device.name}
          </Anchor>
        </Text>
      </Stack>
    </Group>
  );
}

function DaySection({ day, now }: { day: Day; now: Date }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId}>
      <Title
        order={2}
        fz="sm"
        c="dimmed"
        tt="uppercase"
        id={headingId}
        mb={4}
        style={{ letterSpacing: '0.04em' }}
      >
        {dayLabel(day.key, now)}
      </Title>
      <Stack gap={0} component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
        {day.items.map((item, index) => (
          <Fragment key={itemKey(item)}>
            {index > 0 && <Divider component="li" aria-hidden="true" />}
            <li>
              <ActivityRow item={item} />
            </li>
          </Fragment>
        ))}
      </Stack>
    </section>
  );
}

const KIND_SET: ReadonlySet<string> = new Set(ACTIVITY_KINDS);
const ID = /^[A-Za-z0-9_-]{1,64}$/;

/** The feed's filters, kept in the address (`?lock=&person=&kind=`) so a filtered feed can be linked. */
function useActivityFilters() {
  const [params, setParams] = useSearchParams();
  const lock = params.get('lock') ?? '';
  const person = params.get('person') ?? '';
  const kind = params.get('kind') ?? '';
  const zone = params.get('zone') ?? '';
  const filters: ActivityFilters = {
    ...(ID.test(lock) && { deviceId: lock }),
    ...(ID.test(zone) && { zoneId: zone }),
    ...(ID.test(person) && { userId: person }),
    ...(KIND_SET.has(kind) && { kind: kind as ActivityKind }),
  };
  const set = (name: 'lock' | 'person' | 'kind' | 'zone', value: string | null) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value) next.set(name, value);
        else next.delete(name);
        return next;
      },
      { replace: true },
    );
  return { filters, set };
}

function ActivityFilterBar({
  filters,
  set,
}: {
  filters: ActivityFilters;
  set: (name: 'lock' | 'person' | 'kind' | 'zone', value: string | null) => void;
}) {
  const locks = useLockOptions();
  const lockData = (locks.data?.items ?? []).map((lock) => ({ value: lock._id, label: lock.name }));
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm" mb="md">
      <Select
        label="Lock"
        placeholder="Every lock"
        data={lockData}
        value={filters.deviceId ?? null}
        onChange={(value) => set('lock', value)}
        searchable
        clearable
        nothingFoundMessage="No lock has that name"
      />
      <PersonSelect
        label="Person"
        value={filters.userId ?? null}
        onChange={(value) => set('person', value)}
      />
      <Select
        label="Kind"
        placeholder="Everything"
        data={KIND_OPTIONS}
        value={filters.kind ?? null}
        onChange={(value) => set('kind', value)}
        clearable
      />
      {/* The locks of a zone and its sub-zones (features/zones); hidden while the portal has none. */}
      <ZoneFilter value={filters.zoneId ?? null} onChange={(value) => set('zone', value)} />
    </SimpleGrid>
  );
}

function ExportActivityButton({ filters }: { filters: ActivityFilters }) {
  return <ExportCsvButton load={() => exportActivityCsv(filters)} fileName="activity" what="the activity" />;
}

export function ActivityPage() {
  const { filters, set } = useActivityFilters();
  const filtered = Object.keys(filters).length > 0;
  const activity = useActivity(filters);
  const items = useMemo(() => activity.data?.pages.flatMap((page) => page.items) ?? [], [activity.data]);
  const days = useMemo(() => byDay(items), [items]);
  const [now] = useState(() => new Date());

  let body;
  if (activity.isPending) body = <TableSkeleton rows={6} label="Loading activity" />;
  else if (activity.error && !activity.isFetchNextPageError) {
    body = (
      <QueryError
        title="Could not load the activity"
        error={activity.error}
        onRetry={() => void activity.refetch()}
      />
    );
  } else if (items.length === 0 && filtered) {
    body = (
      <EmptyList
        icon={<IconActivity size={28} aria-hidden="true" />}
        title="Nothing matches"
        description="Nothing with this lock, person and kind has happened yet. Clear a filter to see more."
      />
    );
  } else if (items.length === 0) {
    body = (
      <EmptyList
        icon={<IconActivity size={28} aria-hidden="true" />}
        title="Nothing has happened yet"
        description="Changes admins make and what the locks report (unlocks, refused attempts, alarms) show up here as they happen."
      />
    );
  } else {
    body = (
      <Stack gap="lg">
        {days.map((day) => (
          <DaySection key={day.key} day={day} now={now} />
        ))}
        {activity.isFetchNextPageError && (
          <QueryError
            title="Could not load older activity"
            error={activity.error}
            onRetry={() => void activity.fetchNextPage()}
          />
        )}
        <Group justify="center">
          {activity.hasNextPage ? (
            <Button
              variant="default"
              loading={activity.isFetchingNextPage}
              onClick={() => void activity.fetchNextPage()}
            >
              Load older
            </Button>
          ) : (
            <Text size="sm" c="dimmed">
              That is everything.
            </Text>
          )}
        </Group>
      </Stack>
    );
  }

  return (
    <Stack gap="lg">
      <PageHeader
        title="Activity"
        description="What happened in the portal, newest first: changes admins made and what the locks reported."
        aside={<ExportActivityButton filters={filters} />}
      />
      <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }}>
        <ActivityFilterBar filters={filters} set={set} />
        {body}
      </Paper>
    </Stack>
  );
}
