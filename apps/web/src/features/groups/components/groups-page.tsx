import type { Group as PortalGroup } from '@latchkey/shared';
import { Anchor, Button, Group, Stack, Table, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconPlus, IconUsersGroup } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import { EmptyList, NoMatchList } from '@/components/empty-list';
import { SearchInput } from '@/components/search-input';
import { SortableTh } from '@/components/sortable-th';
import { paths } from '@/config/paths';
import { formatDate } from '@/lib/format';
import { useFormMutation } from '@/lib/forms';
import { useListParams } from '@/lib/use-list-params';
import { useCreateGroup } from '../api/create-group';
import { useGroups } from '../api/get-groups';
import { GROUP_LABELS, GroupFormFields, validateGroup, type GroupValues } from './group-form-fields';
import { ListPage } from '@/components/list-page';
import { FormModal, useDirtyForm } from '@/components/form-modal';

const SORT_FIELDS = ['name', 'createdAt'] as const;
type GroupSort = (typeof SORT_FIELDS)[number];

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function CreateGroupForm({ onCancel }: { onCancel: () => void }) {
  const navigate = useNavigate();
  const create = useCreateGroup();
  const form = useForm<GroupValues>({
    mode: 'controlled',
    initialValues: { name: '', description: '' },
    validate: validateGroup,
  });
  // Escape or a click outside asks before throwing away what was typed (FormModal).
  useDirtyForm(form.isDirty());

  const { submit } = useFormMutation(form, {
    run: async (values) => {
      const group = await create.mutateAsync(values);
      notifications.show({
        color: 'teal',
        title: 'Group created',
        message: `Now add people and locks to ${group.name}.`,
      });
      onCancel();
      void navigate(paths.app.group.href(group._id));
    },
    labels: GROUP_LABELS,
    onStatus: { 409: 'name' },
    otherwise: 'Could not create the group',
  });

  return (
    <form onSubmit={submit} noValidate aria-label="New group">
      <Stack gap="md">
        <GroupFormFields form={form} autoFocus />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={create.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={create.isPending}>
            Create group
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function GroupRow({ group }: { group: PortalGroup }) {
  return (
    <Table.Tr>
      <Table.Td>
        <Anchor component={Link} to={paths.app.group.href(group._id)} fw={600} size="sm">
          {group.name}
        </Anchor>
        {group.description && (
          <Text size="xs" c="dimmed" lineClamp={2} maw={420}>
            {group.description}
          </Text>
        )}
        <Text size="xs" c="dimmed" hiddenFrom="sm" mt={4}>
          {count(group.userCount, 'person', 'people')} · {count(group.deviceCount, 'lock', 'locks')}
        </Text>
      </Table.Td>
      <Table.Td visibleFrom="sm">
        <Text size="sm">{group.userCount}</Text>
      </Table.Td>
      <Table.Td visibleFrom="sm">
        <Text size="sm">{group.deviceCount}</Text>
      </Table.Td>
      <Table.Td visibleFrom="xs" style={{ whiteSpace: 'nowrap' }}>
        <Text size="sm">{formatDate(group.createdAt)}</Text>
      </Table.Td>
    </Table.Tr>
  );
}

/** /app/group (admin): the portal's groups, and "New group". */
export function GroupsPage() {
  const list = useListParams<GroupSort>({ sortFields: SORT_FIELDS, defaultSort: 'name' });
  const groups = useGroups(list.query);
  const [creating, { open, close }] = useDisclosure(false);

  const createButton = (
    <Button leftSection={<IconPlus size={18} aria-hidden="true" />} onClick={open}>
      New group
    </Button>
  );

  const noGroupsMatch = (
    <NoMatchList
      title="No groups match"
      description="Try another name."
      showAll="Show all groups"
      onShowAll={() => list.setSearch('')}
    />
  );
  const noGroupsYet = (
    <EmptyList
      invite
      icon={<IconUsersGroup size={28} aria-hidden="true" />}
      title="No groups yet"
      description="A group gives all its people access to all its locks: staff, cleaners, a family."
      action={createButton}
    />
  );

  return (
    <ListPage
      title="Groups"
      description="Give many people access to many locks at once."
      actions={createButton}
      filters={
        <SearchInput
          label="Search groups"
          placeholder="Group name"
          value={list.search}
          onSearch={list.setSearch}
          mb="md"
          maw={420}
        />
      }
      query={groups}
      loadingLabel="Loading groups"
      errorTitle="Could not load the groups"
      filtered={Boolean(list.search)}
      empty={noGroupsYet}
      noMatch={list.search ? noGroupsMatch : noGroupsYet}
      list={list}
      noun={['group', 'groups']}
      table={(items) => (
        <>
          <Table.Thead>
            <Table.Tr>
              <SortableTh {...list.sortProps('name')}>Name</SortableTh>
              <Table.Th scope="col" visibleFrom="sm">
                People
              </Table.Th>
              <Table.Th scope="col" visibleFrom="sm">
                Locks
              </Table.Th>
              <SortableTh {...list.sortProps('createdAt')} visibleFrom="xs">
                Created
              </SortableTh>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((group) => (
              <GroupRow key={group._id} group={group} />
            ))}
          </Table.Tbody>
        </>
      )}
    >
      <FormModal opened={creating} onClose={close} title="New group">
        <CreateGroupForm onCancel={close} />
      </FormModal>
    </ListPage>
  );
}
