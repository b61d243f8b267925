import type { PortalMember } from '@latchkey/shared';
import { Anchor, Button, Group, Table, Text, VisuallyHidden } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconKey, IconKeyOff, IconUserPlus, IconUsers } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { EmptyList, NoMatchList } from '@/components/empty-list';
import { MemberSince, MemberStatusBadge, RoleBadge } from '@/components/member-badges';
import { ListFilters } from '@/components/list-filters';
import {
  BulkBar,
  SelectAllTh,
  SelectRowTd,
  useRowSelection,
  type RowSelection,
} from '@/components/list-selection';
import { SortableTh } from '@/components/sortable-th';
import { paths } from '@/config/paths';
import { displayName } from '@/lib/session';
import { useListParams } from '@/lib/use-list-params';
import { useMembers } from '../api/get-members';
import { BulkAccessModal, type BulkChange } from './bulk-access-modal';
import { ExportMembersButton } from './export-members-button';
import { InviteMemberModal, type MemberInvited } from './invite-member-modal';
import { ReinviteButton } from './reinvite-button';
import { ListPage } from '@/components/list-page';

const SORT_FIELDS = ['firstName', 'lastName', 'email', 'role', 'status', 'joinedAt'] as const;
type MemberSort = (typeof SORT_FIELDS)[number];

/** One filter at a time (the list query has one filterBy): a role or a status. */
const SHOW_OPTIONS = [
  {
    group: 'Role',
    items: [
      { value: 'role:admin', label: 'Admins' },
      { value: 'role:user', label: 'Users' },
    ],
  },
  {
    group: 'Status',
    items: [
      { value: 'status:active', label: 'Active' },
      { value: 'status:invited', label: 'Invited' },
      { value: 'status:suspended', label: 'Suspended' },
    ],
  },
];
const SHOW_VALUES = new Set(SHOW_OPTIONS.flatMap((group) => group.items.map((item) => item.value)));

const NO_WRAP = { whiteSpace: 'nowrap' } as const;

function MemberRow({ member, selection }: { member: PortalMember; selection: RowSelection }) {
  const name = displayName(member);
  return (
    <Table.Tr>
      <SelectRowTd selection={selection} id={member._id} label={`Choose ${name}`} />
      <Table.Td>
        <Anchor component={Link} to={paths.app.member.href(member._id)} fw={600} size="sm">
          {name}
        </Anchor>
        {name !== member.email && (
          <Text size="xs" c="dimmed" hiddenFrom="md" style={{ overflowWrap: 'anywhere' }}>
            {member.email}
          </Text>
        )}
        <Group gap={6} mt={6} hiddenFrom="sm">
          <RoleBadge member={member} />
          <MemberStatusBadge status={member.status} />
          {member.status === 'invited' && <ReinviteButton member={member} />}
        </Group>
      </Table.Td>
      <Table.Td visibleFrom="md">
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {member.email}
        </Text>
      </Table.Td>
      <Table.Td visibleFrom="sm" style={NO_WRAP}>
        <RoleBadge member={member} />
      </Table.Td>
      <Table.Td visibleFrom="sm" style={NO_WRAP}>
        <MemberStatusBadge status={member.status} />
      </Table.Td>
      <Table.Td visibleFrom="xs" style={NO_WRAP}>
        <MemberSince member={member} />
      </Table.Td>
      <Table.Td visibleFrom="sm" ta="right" style={NO_WRAP}>
        {member.status === 'invited' && <ReinviteButton member={member} />}
      </Table.Td>
    </Table.Tr>
  );
}

/** /app/user (admin): the portal's people, searchable, filterable and sortable, and "Add person". */
export function MembersPage() {
  const list = useListParams<MemberSort>({ sortFields: SORT_FIELDS, defaultSort: 'firstName' });
  const show = SHOW_VALUES.has(list.param('show')) ? list.param('show') : '';
  const [filterBy, filterValue] = show ? (show.split(':') as ['role' | 'status', string]) : [];
  const members = useMembers({
    ...list.query,
    ...(filterBy ? { filterBy, filterValue } : {}),
  });
  const [adding, { open: openAdd, close: closeAdd }] = useDisclosure(false);
  const filtered = Boolean(list.search || show);
  const selection = useRowSelection();
  const [bulkChange, setBulkChange] = useState<BulkChange | null>(null);

  const onInvited = ({ member }: MemberInvited) => {
    closeAdd();
    notifications.show({
      color: 'teal',
      title: 'Invitation sent',
      message: `${displayName(member)} is on the list as invited; ${member.email} gets a mail with a link to join.`,
    });
  };

  const addButton = (
    <Button leftSection={<IconUserPlus size={18} aria-hidden="true" />} onClick={openAdd}>
      Add person
    </Button>
  );

  const nobodyMatches = (
    <NoMatchList
      title="Nobody matches"
      description="Try another name or email, or show everyone."
      showAll="Show everyone"
      onShowAll={() => list.setParams({ show: null, search: null })}
    />
  );
  const nobodyYet = (
    <EmptyList
      invite
      icon={<IconUsers size={28} aria-hidden="true" />}
      title="Nobody here yet"
      description="Add the people who will open your locks, or help you run the portal."
      action={addButton}
    />
  );

  return (
    <ListPage
      title="People"
      description="Everyone in the portal: who runs it and who opens its locks."
      actions={
        <Group gap="sm" wrap="wrap">
          <ExportMembersButton />
          {addButton}
        </Group>
      }
      filters={
        <ListFilters
          list={list}
          searchLabel="Search people"
          searchPlaceholder="Name or email"
          filter={{
            param: 'show',
            label: 'Show',
            placeholder: 'Everyone',
            data: SHOW_OPTIONS,
            value: show || null,
          }}
        />
      }
      bulkBar={
        <BulkBar selection={selection} noun={['person', 'people']}>
          <Button
            size="xs"
            leftSection={<IconKey size={16} aria-hidden="true" />}
            onClick={() => setBulkChange('grant')}
          >
            Give access…
          </Button>
          <Button
            size="xs"
            variant="default"
            leftSection={<IconKeyOff size={16} aria-hidden="true" />}
            onClick={() => setBulkChange('revoke')}
          >
            Remove access…
          </Button>
        </BulkBar>
      }
      query={members}
      loadingLabel="Loading people"
      errorTitle="Could not load the people"
      filtered={filtered}
      empty={nobodyYet}
      noMatch={filtered ? nobodyMatches : nobodyYet}
      list={list}
      noun={['person', 'people']}
      table={(items) => (
        <>
          <Table.Thead>
            <Table.Tr>
              <SelectAllTh
                selection={selection}
                ids={items.map((member) => member._id)}
                label="Choose everyone shown"
              />
              <SortableTh {...list.sortProps('firstName')}>Name</SortableTh>
              <SortableTh {...list.sortProps('email')} visibleFrom="md">
                Email
              </SortableTh>
              <SortableTh {...list.sortProps('role')} visibleFrom="sm">
                Role
              </SortableTh>
              <SortableTh {...list.sortProps('status')} visibleFrom="sm">
                Status
              </SortableTh>
              <SortableTh {...list.sortProps('joinedAt')} visibleFrom="xs">
                Joined
              </SortableTh>
              <Table.Th visibleFrom="sm">
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((member) => (
              <MemberRow key={member._id} member={member} selection={selection} />
            ))}
          </Table.Tbody>
        </>
      )}
    >
      <InviteMemberModal opened={adding} onCancel={closeAdd} onInvited={onInvited} />
      <BulkAccessModal
        change={bulkChange}
        userIds={selection.ids}
        onClose={() => setBulkChange(null)}
        onDone={() => {
          setBulkChange(null);
          selection.clear();
        }}
      />
    </ListPage>
  );
}
