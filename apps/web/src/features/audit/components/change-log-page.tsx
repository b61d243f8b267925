import { scheduleSchema, type AuditEntry } from '@latchkey/shared';
import {
  ActionIcon,
  Button,
  Code,
  Group,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { IconChevronDown, IconChevronRight, IconHistory } from '@tabler/icons-react';
import { useState } from 'react';
import { EmptyList } from '@/components/empty-list';
import { describeSchedule } from '@/components/schedule/describe-schedule';
import { SortableTh } from '@/components/sortable-th';
import { formatDateTime, formatRelative } from '@/lib/format';
import { useListParams } from '@/lib/use-list-params';
import { useAudit } from '../api/get-audit';
import {
  actionText,
  changedFields,
  dayBoundary,
  entityLabel,
  entityName,
  ENTITY_OPTIONS,
} from '@/lib/audit-text';
import classes from './change-log-page.module.css';
import { ListPage } from '@/components/list-page';

const SORT_FIELDS = ['createdAt'] as const;

function State({ label, value }: { label: string; value: unknown }) {
  return (
    <Stack gap={4} style={{ minWidth: 0 }}>
      <Text size="xs" fw={700} tt="uppercase" c="dimmed" style={{ letterSpacing: '0.04em' }}>
        {label}
      </Text>
      {value === null || value === undefined ? (
        <Text size="sm" c="dimmed">
          Nothing
        </Text>
      ) : (
        <Code block className={classes.json}>
          {JSON.stringify(value, null, 2)}
        </Code>
      )}
    </Stack>
  );
}

/** A schedule change in words ("Any time → Mon–Fri 09:00–17:00"), when both sides hold one. */
function scheduleChange(entry: AuditEntry): string | null {
  const read = (state: unknown) => {
    if (typeof state !== 'object' || state === null || !('schedule' in state)) return undefined;
    const value = (state as { schedule: unknown }).schedule;
    if (value === null) return 'Any time';
    const parsed = scheduleSchema.safeParse(value);
    return parsed.success ? describeSchedule(parsed.data) : undefined;
  };
  const before = entry.before === null ? 'No schedule' : read(entry.before);
  const after = entry.after === null ? 'No schedule' : read(entry.after);
  return before !== undefined && after !== undefined ? `${before} → ${after}` : null;
}

function Actor({ entry }: { entry: AuditEntry }) {
  if (!entry.actor) {
    return (
      <Text size="sm" c="dimmed">
        System
      </Text>
    );
  }
  return (
    <Text size="sm" title={entry.actor.email} style={{ overflowWrap: 'anywhere' }}>
      {entry.actor.name || entry.actor.email}
    </Text>
  );
}

function What({ entry }: { entry: AuditEntry }) {
  const name = entityName(entry);
  return (
    <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
      {entityLabel(entry.entityType)}
      {name ? `: ${name}` : ''}
    </Text>
  );
}

function EntryRows({
  entry,
  expanded,
  onToggle,
}: {
  entry: AuditEntry;
  expanded: boolean;
  onToggle: () => void;
}) {
  const detailsId = `audit-${entry._id}`;
  const changed = changedFields(entry);
  const schedule = scheduleChange(entry);
  return (
    <>
      <Table.Tr className={expanded ? classes.expandedRow : undefined}>
        <Table.Td w={44} pr={0}>
          <ActionIcon
            variant="subtle"
            onClick={onToggle}
            aria-expanded={expanded}
            aria-controls={detailsId}
            aria-label={`${expanded ? 'Hide' : 'Show'} the change: ${actionText(entry.action)}`}
          >
            {expanded ? <IconChevronDown size={16} /> : <IconChevronRight size={16} />}
          </ActionIcon>
        </Table.Td>
        <Table.Td miw={96}>
          <Text size="sm" component="time" dateTime={entry.createdAt} title={formatRelative(entry.createdAt)}>
            {formatDateTime(entry.createdAt)}
          </Text>
        </Table.Td>
        <Table.Td visibleFrom="sm">
          <Actor entry={entry} />
        </Table.Td>
        <Table.Td>
          <Text size="sm" fw={600}>
            {actionText(entry.action)}
          </Text>
          <Text size="xs" c="dimmed" ff="monospace">
            {entry.action}
          </Text>
          <Stack gap={0} hiddenFrom="sm" mt={4}>
            <What entry={entry} />
            <Text size="xs" c="dimmed">
              by {entry.actor ? entry.actor.name || entry.actor.email : 'the system'}
            </Text>
          </Stack>
        </Table.Td>
        <Table.Td visibleFrom="sm">
          <What entry={entry} />
        </Table.Td>
      </Table.Tr>
      {expanded && (
        <Table.Tr id={detailsId}>
          <Table.Td colSpan={5} className={classes.details}>
            <Stack gap="sm">
              <Group gap="lg" wrap="wrap">
                <Text size="xs" c="dimmed">
                  Record <Code>{entry.entityId}</Code>
                </Text>
                {entry.ip && (
                  <Text size="xs" c="dimmed">
                    From <Code>{entry.ip}</Code>
                  </Text>
                )}
                {changed.length > 0 && (
                  <Text size="xs" c="dimmed">
                    Changed: {changed.join(', ')}
                  </Text>
                )}
              </Group>
              {schedule && (
                <Text size="sm">
                  <Text span fw={600} size="sm">
                    Schedule:{' '}
                  </Text>
                  {schedule}
                </Text>
              )}
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
                <State label="Before" value={entry.before} />
                <State label="After" value={entry.after} />
              </SimpleGrid>
            </Stack>
          </Table.Td>
        </Table.Tr>
      )}
    </>
  );
}

/** /app/adminChangeLog (admin): every admin change in the portal, filterable, with before and after. */
export function ChangeLogPage() {
  const list = useListParams({ sortFields: SORT_FIELDS, defaultSort: 'createdAt', defaultDescending: true });
  const type = list.param('type');
  const from = list.param('from');
  const to = list.param('to');
  const datesWrong = Boolean(from && to && to < from);
  const audit = useAudit({
    skip: list.query.skip,
    limit: list.query.limit,
    sortBy: 'createdAt',
    descending: list.descending,
    ...(type ? { filterBy: 'entityType' as const, filterValue: type } : {}),
    fromDate: from ? dayBoundary(from, 'start') : undefined,
    toDate: to && !datesWrong ? dayBoundary(to, 'end') : undefined,
  });
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const filtered = Boolean(type || from || to);

  const toggle = (id: string) =>
    setExpanded((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const clearFilters = () => list.setParams({ type: null, from: null, to: null });

  const emptyList = (
    <EmptyList
      icon={<IconHistory size={28} aria-hidden="true" />}
      title={filtered ? 'No changes match' : 'No changes yet'}
      description={
        filtered
          ? 'Try another type of record or other dates.'
          : 'Every change an admin makes (locks, people, groups, codes, schedules) is recorded here.'
      }
      action={
        filtered && (
          <Button variant="default" onClick={clearFilters}>
            Show all changes
          </Button>
        )
      }
    />
  );

  return (
    <ListPage
      title="Change log"
      description="Who changed what in the portal, and when. Entries are never edited."
      filters={
        <Group gap="sm" mb="md" align="flex-end" wrap="wrap">
          <Select
            label="Record type"
            placeholder="All records"
            data={ENTITY_OPTIONS}
            searchable
            value={type || null}
            onChange={(value) => list.setParam('type', value)}
            clearable
            comboboxProps={{ withinPortal: true }}
            style={{ flex: '1 1 180px' }}
          />
          <TextInput
            type="date"
            label="From"
            value={from}
            max={to || undefined}
            onChange={(event) => list.setParam('from', event.currentTarget.value || null)}
            style={{ flex: '1 1 150px' }}
          />
          <TextInput
            type="date"
            label="To"
            value={to}
            min={from || undefined}
            error={datesWrong ? 'The end date must not be before the start date' : undefined}
            onChange={(event) => list.setParam('to', event.currentTarget.value || null)}
            style={{ flex: '1 1 150px' }}
          />
          {filtered && (
            <Button variant="subtle" onClick={clearFilters}>
              Clear filters
            </Button>
          )}
        </Group>
      }
      query={audit}
      loadingLabel="Loading the change log"
      errorTitle="Could not load the change log"
      filtered={filtered}
      empty={emptyList}
      noMatch={emptyList}
      list={list}
      noun={['change', 'changes']}
      minWidth={320}
      tableProps={{ verticalSpacing: 'xs', highlightOnHover: false }}
      table={(items) => (
        <>
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={44}>
                <VisuallyHidden>Details</VisuallyHidden>
              </Table.Th>
              <SortableTh sorted descending={list.descending} onSort={() => list.toggleSort('createdAt')}>
                When
              </SortableTh>
              <Table.Th scope="col" visibleFrom="sm">
                Who
              </Table.Th>
              <Table.Th scope="col">Action</Table.Th>
              <Table.Th scope="col" visibleFrom="sm">
                What
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((entry) => (
              <EntryRows
                key={entry._id}
                entry={entry}
                expanded={expanded.has(entry._id)}
                onToggle={() => toggle(entry._id)}
              />
            ))}
          </Table.Tbody>
        </>
      )}
    />
  );
}
