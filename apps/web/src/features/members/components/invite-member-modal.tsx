import { userInviteSchema, type PortalMember } from '@latchkey/shared';
import { Button, Group, Modal, MultiSelect, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDebouncedValue } from '@mantine/hooks';
import { useMemo, useState } from 'react';
import { formResolver, useFormMutation } from '@/lib/forms';
import { useGroupOptions } from '@/features/groups/api/get-groups';
import { useInviteMember } from '../api/invite-member';
import { PERSON_LABELS, PersonFields, type PersonValues } from './person-fields';
import { ConfirmEmailFirst } from '@/components/confirm-email-first';
import { useLockOptions } from '@/features/devices/api/get-devices';
import { useSession } from '@/lib/session';

interface InviteValues extends PersonValues {
  groupIds: string[];
  deviceIds: string[];
}

const LABELS: Record<keyof InviteValues, string> = {
  ...PERSON_LABELS,
  groupIds: 'Groups',
  deviceIds: 'Locks',
};

export interface MemberInvited {
  member: PortalMember;
}

interface InviteMemberFormProps {
  onInvited: (invited: MemberInvited) => void;
  onCancel: () => void;
}

function InviteMemberForm({ onInvited, onCancel }: InviteMemberFormProps) {
  const invite = useInviteMember();
  // The server refuses invitations from an unconfirmed address (they would be mail to anyone).
  const unconfirmed = useSession().data?.user.emailVerified === false;
  const groups = useGroupOptions();
  const [lockSearch, setLockSearch] = useState('');
  const [debouncedLockSearch] = useDebouncedValue(lockSearch, 300);
  const locks = useLockOptions(debouncedLockSearch);
  // Names of the locks chosen so far, so they keep their label when a search no longer lists them.
  const [lockNames, setLockNames] = useState<Record<string, string>>({});
  // Each list closes after a pick, so its dropdown never covers the field or buttons below it.
  const [openList, setOpenList] = useState<'groups' | 'locks' | null>(null);

  const form = useForm<InviteValues>({
    mode: 'controlled',
    initialValues: { email: '', firstName: '', lastName: '', role: 'user', groupIds: [], deviceIds: [] },
    validate: formResolver(userInviteSchema, LABELS),
  });

  const groupData = useMemo(
    () => (groups.data?.items ?? []).map((group) => ({ value: group._id, label: group.name })),
    [groups.data],
  );
  const lockData = useMemo(() => {
    const found = (locks.data?.items ?? []).map((lock) => ({ value: lock._id, label: lock.name }));
    const chosen = form.values.deviceIds
      .filter((id) => !found.some((option) => option.value === id))
      .map((id) => ({ value: id, label: lockNames[id] ?? id }));
    return [...chosen, ...found];
  }, [form.values.deviceIds, lockNames, locks.data]);

  const { submit } = useFormMutation(form, {
    run: async (values) => {
      onInvited(await invite.mutateAsync(values));
    },
    labels: LABELS,
    onStatus: { 409: 'email' },
    otherwise: 'Could not send the invitation',
  });

  return (
    <form onSubmit={submit} noValidate aria-label="Add person">
      <Stack gap="md">
        <Text size="sm">
          They get a mail with a link to join: someone new chooses their own password there. Codes and cards
          you give them work on the locks at once; opening from the app starts once they accept.
        </Text>
        {unconfirmed && (
          <ConfirmEmailFirst>People can be added once your own email address is confirmed.</ConfirmEmailFirst>
        )}
        <PersonFields form={form} />
        <MultiSelect
          label={LABELS.groupIds}
          description="Optional: the groups they join."
          placeholder={groups.isPending ? 'Loading groups…' : groupData.length ? 'Choose groups' : undefined}
          data={groupData}
          searchable
          clearable
          nothingFoundMessage={groupData.length ? 'No group matches' : 'This portal has no groups yet'}
          disabled={groups.isError}
          error={groups.isError ? 'Could not load the groups' : form.getInputProps('groupIds').error}
          comboboxProps={{ withinPortal: true }}
          dropdownOpened={openList === 'groups'}
          onDropdownOpen={() => setOpenList('groups')}
          onDropdownClose={() => setOpenList(null)}
          value={form.values.groupIds}
          onChange={(value) => {
            form.setFieldValue('groupIds', value);
            setOpenList(null);
          }}
        />
        <MultiSelect
          label={LABELS.deviceIds}
          description="Optional: locks they may open directly. Type to search."
          placeholder="Search locks"
          data={lockData}
          searchable
          clearable
          searchValue={lockSearch}
          onSearchChange={setLockSearch}
          filter={({ options }) => options}
          nothingFoundMessage={locks.isFetching ? 'Searching…' : 'No lock matches'}
          error={locks.isError ? 'Could not load the locks' : form.getInputProps('deviceIds').error}
          comboboxProps={{ withinPortal: true }}
          dropdownOpened={openList === 'locks'}
          onDropdownOpen={() => setOpenList('locks')}
          onDropdownClose={() => setOpenList(null)}
          value={form.values.deviceIds}
          onChange={(value) => {
            setOpenList(null);
            const names = { ...lockNames };
            for (const option of lockData)
              if (value.includes(option.value)) names[option.value] = option.label;
            setLockNames(names);
            form.setFieldValue('deviceIds', value);
          }}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={invite.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={invite.isPending} disabled={unconfirmed}>
            Send invitation
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

interface InviteMemberModalProps extends InviteMemberFormProps {
  opened: boolean;
}

/**
 * "Add person": an invitation by email with a name, role and optional groups and locks
 * (POST user/invite). Nobody chooses a password for someone else.
 */
export function InviteMemberModal({ opened, onCancel, onInvited }: InviteMemberModalProps) {
  return (
    <Modal opened={opened} onClose={onCancel} title="Add person" closeButtonProps={{ 'aria-label': 'Close' }}>
      <InviteMemberForm onCancel={onCancel} onInvited={onInvited} />
    </Modal>
  );
}
