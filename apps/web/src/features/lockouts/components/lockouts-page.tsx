import { LOCKOUT_STATES, type LockoutRecord } from '@latchkey/shared';
import { Anchor, Button, Group, Stack, Table, Text } from '@mantine/core';
import { IconLockCancel, IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { EmptyList, NoMatchList } from '@/components/empty-list';
import { ListFilters } from '@/components/list-filters';
import { SortableTh } from '@/components/sortable-th';
import { paths } from '@/config/paths';
import { useListParams } from '@/lib/use-list-params';
import { usePortalTimeZone } from '@/lib/zoned-time';
import { useLockouts } from '../api/get-lockouts';
import { ExemptBadge, LockoutStateBadge } from './lockout-badges';
import { describeLocks, describePeriod, STATE_LABELS, type LockoutState } from './lockout-text';
import { ListPage } from '@/components/list-page';

const SORT_FIELDS = ['from', 'name', 'createdAt'] as const;
type LockoutSort = (typeof SORT_FIELDS)[number];

const STATE_OPTIONS = LOCKOUT_STATES.map((state) => ({ value: state, label: STATE_LABELS[state] }));
const isState = (value: string): value is LockoutState =>
  (LOCKOUT_STATES as readonly string[]).includes(value);

function LockoutRow({ lockout }: { lockout: LockoutRecord }) {
  const count = lockout.devices.length;
  const period = describePeriod(lockout, usePortalTimeZone());
  return (
    <Table.Tr>
      <Table.Td>
        <Anchor component={Link} to={paths.app.lockout.href(lockout._id)} fw={600} size="sm">
          {lockout.name}
        </Anchor>
        {/* On phones the period and locks ride along under the name. */}
        <Stack gap={2} mt={4} hiddenFrom="sm">
          <Text size="xs">{period}</Text>
          <Text size="xs" c="dimmed">
            {count === 1 ? '1 lock' : `${count} locks`}: {describeLocks(lockout.devices)}
          </Text>
        </Stack>
        {lockout.exemptAdmins && <ExemptBadge size="sm" mt={6} hiddenFrom="md" />}
      </Table.Td>
      <Table.Td visibleFrom="sm">
        <Text size="sm">{period}</Text>
      </Table.Td>
      <Table.Td visibleFrom="sm">
        <Text size="sm">{count === 1 ? '1 lock' : `${count} locks`}</Text>
        <Text size="xs" c="dimmed" lineClamp={2} maw={260}>
          {describeLocks(lockout.devices)}
        </Text>
      </Table.Td>
      <Table.Td>
        <Group gap={6} wrap="wrap">
          <LockoutStateBadge lockout={lockout} />
          {lockout.exemptAdmins && <ExemptBadge visibleFrom="md" />}
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

/** /app/lockout (admin): the portal's lockouts, filtered by state, and "New lockout". */
export function LockoutsPage() {
  const list = useListParams<LockoutSort>({
    sortFields: SORT_FIELDS,
    defaultSort: 'from',
    defaultDescending: true,
  });
  const stateParam = list.param('state');
  const state = isState(stateParam) ? stateParam : null;
  const params = { ...list.query, ...(state ? { filterBy: 'state' as const, filterValue: state } : {}) };
  const lockouts = useLockouts(params);
  const filtered = Boolean(list.search || state);

  const newButton = (
    <Button
      component={Link}
      to={paths.app.lockoutEdit.href('new')}
      leftSection={<IconPlus size={18} aria-hidden="true" />}
    >
      New lockout
    </Button>
  );

  return (
    <ListPage
      title="Lockouts"
      description="Keep locks shut for a period, whatever anyone's access says."
      actions={newButton}
      filters={
        <ListFilters
          list={list}
          searchLabel="Search lockouts"
          searchPlaceholder="Lockout name"
          filter={{
            param: 'state',
            label: 'State',
            placeholder: 'All states',
            data: STATE_OPTIONS,
            value: state,
          }}
        />
      }
      query={lockouts}
      loadingLabel="Loading lockouts"
      errorTitle="Could not load the lockouts"
      filtered={filtered}
      empty={
        <EmptyList
          invite
          icon={<IconLockCancel size={28} aria-hidden="true" />}
          title="No lockouts yet"
          description="A lockout keeps chosen locks shut for a period (works, an incident, a holiday), whatever anyone's access says."
          action={newButton}
        />
      }
      noMatch={
        <NoMatchList
          title="No lockouts match"
          description="Try another name, or another state."
          showAll="Show all lockouts"
          onShowAll={() => list.setParams({ state: null, search: null })}
        />
      }
      list={list}
      noun={['lockout', 'lockouts']}
      table={(items) => (
        <>
          <Table.Thead>
            <Table.Tr>
              <SortableTh {...list.sortProps('name')}>Name</SortableTh>
              <SortableTh {...list.sortProps('from')} visibleFrom="sm">
                Period
              </SortableTh>
              <Table.Th scope="col" visibleFrom="sm">
                Locks
              </Table.Th>
              <Table.Th scope="col">State</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((lockout) => (
              <LockoutRow key={lockout._id} lockout={lockout} />
            ))}
          </Table.Tbody>
        </>
      )}
    />
  );
}
