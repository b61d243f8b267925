import type { Group as PortalGroup } from '@latchkey/shared';
import { Button, Grid, Group, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconLock, IconUsers } from '@tabler/icons-react';
import { useParams } from 'react-router';
import { notifyUndoable } from '@/components/access/undo-notification';
import { DeleteRecordCard } from '@/components/delete-record-card';
import { SectionCard } from '@/components/section-card';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/errors';
import { useFormMutation } from '@/lib/forms';
import { displayName } from '@/lib/session';
import { useAddGroupDevice } from '../api/add-group-device';
import { useAddGroupUser } from '../api/add-group-user';
import { useDeleteGroup } from '../api/delete-group';
import { useGroup } from '../api/get-group';
import { useGroupDevices } from '../api/get-group-devices';
import { useGroupPossibleDevices } from '../api/get-group-possible-devices';
import { useGroupPossibleUsers } from '../api/get-group-possible-users';
import { useGroupUsers } from '../api/get-group-users';
import { groupKeys } from '../api/query-keys';
import { useRemoveGroupDevice } from '../api/remove-group-device';
import { useRemoveGroupUser } from '../api/remove-group-user';
import { useUpdateGroup } from '../api/update-group';
import { GROUP_LABELS, GroupFormFields, validateGroup, type GroupValues } from './group-form-fields';
import { GroupMembersPanel, type PanelItem } from './group-members-panel';
import { RecordPage } from '@/components/record-page';

function DetailsCard({ group }: { group: PortalGroup }) {
  const update = useUpdateGroup();
  const form = useForm<GroupValues>({
    mode: 'controlled',
    initialValues: { name: group.name, description: group.description },
    validate: validateGroup,
  });

  const { submit } = useFormMutation(form, {
    run: async (values) => {
      const saved = await update.mutateAsync({ groupId: group._id, ...values });
      notifications.show({ color: 'teal', title: 'Group saved', message: `${saved.name} is up to date.` });
    },
    labels: GROUP_LABELS,
    otherwise: 'Could not save the group',
  });

  return (
    <SectionCard title="Details" h="100%">
      <form onSubmit={submit} noValidate aria-label="Group details">
        <Stack gap="md">
          <GroupFormFields form={form} />
          <Group justify="flex-end" gap="sm">
            <Button
              variant="default"
              onClick={() => form.reset()}
              disabled={!form.isDirty() || update.isPending}
            >
              Cancel
            </Button>
            <Button type="submit" loading={update.isPending} disabled={!form.isDirty()}>
              Save changes
            </Button>
          </Group>
        </Stack>
      </form>
    </SectionCard>
  );
}

function PeoplePanel({ group }: { group: PortalGroup }) {
  const users = useGroupUsers(group._id);
  const possible = useGroupPossibleUsers(group._id);
  const add = useAddGroupUser();
  const remove = useRemoveGroupUser();
  const items: PanelItem[] | undefined = users.data?.map((person) => ({
    _id: person._id,
    label: displayName(person),
    detail: displayName(person) === person.email ? undefined : person.email,
    to: paths.app.member.href(person._id),
  }));
  const options = (possible.data ?? []).map((person) => ({
    value: person._id,
    label: displayName(person) === person.email ? person.email : `${displayName(person)} (${person.email})`,
  }));

  return (
    <GroupMembersPanel
      title="People"
      description="Everyone here may open every lock of the group."
      icon={IconUsers}
      items={items}
      error={users.error}
      onRetry={() => void users.refetch()}
      emptyTitle="Nobody in this group yet"
      emptyText="Add the people who should share its locks."
      picker={{
        label: 'Add a person',
        placeholder: 'Choose a person',
        options,
        loading: possible.isPending,
        actionLabel: 'Add',
        allInText: 'Everyone in the portal is in this group.',
        nothingFound: 'Nobody matches',
      }}
      onAdd={async (userId) => {
        const person = possible.data?.find((p) => p._id === userId);
        try {
          await add.mutateAsync({ groupId: group._id, userId });
          notifications.show({
            color: 'teal',
            title: 'Added to the group',
            message: `${person ? displayName(person) : 'They'} can now open the locks of ${group.name}.`,
          });
        } catch (error) {
          notifications.show({
            color: 'red',
            title: 'Could not add the person',
            message: errorMessage(error),
          });
          throw error;
        }
      }}
      onRemove={async (item) => {
        try {
          await remove.mutateAsync({ groupId: group._id, userId: item._id });
          // A slip costs one click: Undo puts the person back in the group (its locks and schedule
          // are the group's, so nothing else is lost), as removing direct access offers.
          notifyUndoable({
            title: 'Removed from the group',
            message: `${item.label} no longer opens locks through ${group.name}. Direct access stays.`,
            undo: () => add.mutateAsync({ groupId: group._id, userId: item._id }),
            undone: `${item.label} is in ${group.name} again and opens its locks.`,
          });
        } catch (error) {
          notifications.show({
            color: 'red',
            title: 'Could not remove the person',
            message: errorMessage(error),
          });
          throw error;
        }
      }}
      removeLabel={(item) => `Remove ${item.label} from the group`}
    />
  );
}

function LocksPanel({ group }: { group: PortalGroup }) {
  const devices = useGroupDevices(group._id);
  const possible = useGroupPossibleDevices(group._id);
  const add = useAddGroupDevice();
  const remove = useRemoveGroupDevice();
  const items: PanelItem[] | undefined = devices.data?.map((device) => ({
    _id: device._id,
    label: device.name,
    detail: device.timeZone,
    to: paths.app.device.href(device._id),
  }));
  const options = (possible.data ?? []).map((device) => ({ value: device._id, label: device.name }));

  return (
    <GroupMembersPanel
      title="Locks"
      description="The locks the group's people may open."
      icon={IconLock}
      items={items}
      error={devices.error}
      onRetry={() => void devices.refetch()}
      emptyTitle="No locks in this group yet"
      emptyText="Add the locks its people should open."
      picker={{
        label: 'Add a lock',
        placeholder: 'Choose a lock',
        options,
        loading: possible.isPending,
        actionLabel: 'Add',
        allInText: 'Every lock of the portal is in this group.',
        nothingFound: 'No lock matches',
      }}
      onAdd={async (deviceId) => {
        const device = possible.data?.find((d) => d._id === deviceId);
        try {
          await add.mutateAsync({ groupId: group._id, deviceId });
          notifications.show({
            color: 'teal',
            title: 'Lock added to the group',
            message: `The people of ${group.name} can now open ${device?.name ?? 'it'}.`,
          });
        } catch (error) {
          notifications.show({ color: 'red', title: 'Could not add the lock', message: errorMessage(error) });
          throw error;
        }
      }}
      onRemove={async (item) => {
        try {
          await remove.mutateAsync({ groupId: group._id, deviceId: item._id });
          notifications.show({
            color: 'teal',
            title: 'Lock removed from the group',
            message: `The people of ${group.name} no longer open ${item.label} through it.`,
          });
        } catch (error) {
          notifications.show({
            color: 'red',
            title: 'Could not remove the lock',
            message: errorMessage(error),
          });
          throw error;
        }
      }}
      removeLabel={(item) => `Remove ${item.label} from the group`}
    />
  );
}

function DeleteGroupCard({ group }: { group: PortalGroup }) {
  const remove = useDeleteGroup();
  return (
    <DeleteRecordCard
      noun="group"
      name={group.name}
      description="Its people lose the access it gave them. Direct access and schedules stay."
      consequence={`${group.userCount === 1 ? '1 person loses' : `${group.userCount} people lose`} the access it gave to ${
        group.deviceCount === 1 ? '1 lock' : `${group.deviceCount} locks`
      }. Their direct access stays.`}
      remove={() => remove.mutateAsync(group._id)}
      pending={remove.isPending}
      listHref={paths.app.groups.href()}
      detailKey={groupKeys.detail(group._id)}
      h="100%"
    />
  );
}

/** /app/group/:groupId (admin): a group's name and description, its people and locks, delete. */
export function GroupPage() {
  const { groupId = '' } = useParams();
  return (
    <RecordPage
      query={useGroup(groupId)}
      noun="group"
      back={{ to: paths.app.groups.href(), label: 'All groups' }}
      header={(group) => ({ title: group.name, description: group.description || 'No description' })}
    >
      {(group) => (
        <Grid gap="lg">
          <Grid.Col span={{ base: 12, md: 6 }}>
            <PeoplePanel group={group} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 6 }}>
            <LocksPanel group={group} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 7 }}>
            <DetailsCard key={`${group._id}:${group.name}:${group.description}`} group={group} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 5 }}>
            <DeleteGroupCard group={group} />
          </Grid.Col>
        </Grid>
      )}
    </RecordPage>
  );
}
