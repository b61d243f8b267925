import { userInviteSchema, type PortalMember, type UserInvite } from '@latchkey/shared';
import {
  Button,
  Checkbox,
  Fieldset,
  Group,
  MultiSelect,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import { useForm, type FormErrors } from '@mantine/form';
import { useDebouncedValue } from '@mantine/hooks';
import { useMemo, useState } from 'react';
import { FormModal, useDirtyForm } from '@/components/form-modal';
import { DAY_LONG, DAY_SHORT, WEEK_ORDER } from '@/components/schedule/describe-schedule';
import { formResolver, useFormMutation } from '@/lib/forms';
import { useGroupOptions } from '@/features/groups/api/get-groups';
import { useInviteMember } from '../api/invite-member';
import { PERSON_LABELS, PersonFields, type PersonValues } from './person-fields';
import { ConfirmEmailFirst } from '@/components/confirm-email-first';
import { useLockOptions } from '@/features/devices/api/get-devices';
import { useSession } from '@/lib/session';
import { ClockInput } from '@/components/clock-input';

interface InviteValues extends PersonValues {
  groupIds: string[];
  deviceIds: string[];
  accessCode: string;
  /** Off: at any time. On: the days and hours below, at every chosen lock. */
  limitTimes: boolean;
  /** Checked weekdays, '0' = Sunday … '6' = Saturday. */
  days: string[];
  start: string;
  end: string;
}

type Field = Exclude<keyof InviteValues, 'limitTimes'>;

const LABELS: Record<Field, string> = {
  ...PERSON_LABELS,
  groupIds: 'Groups',
  deviceIds: 'Locks',
  accessCode: 'Access code',
  days: 'Days',
  start: 'From',
  end: 'Until',
};

const INITIAL: InviteValues = {
  email: '',
  firstName: '',
  lastName: '',
  role: 'user',
  groupIds: [],
  deviceIds: [],
  accessCode: '',
  limitTimes: false,
  days: ['1', '2', '3', '4', '5'],
  start: '08:00',
  end: '18:00',
};

/** The one request "Add person" sends: the invitation with its code and schedule, if given. */
export function toInvite(values: InviteValues): UserInvite {
  const code = values.accessCode.trim();
  return {
    email: values.email,
    firstName: values.firstName,
    lastName: values.lastName,
    role: values.role,
    groupIds: values.groupIds,
    deviceIds: values.deviceIds,
    ...(code ? { accessCode: code } : {}),
    ...(values.limitTimes
      ? {
          schedule: {
            windows: [
              { days: values.days.map(Number).sort((a, b) => a - b), start: values.start, end: values.end },
            ],
          },
        }
      : {}),
  };
}

const resolve = formResolver<InviteValues>(userInviteSchema, LABELS, toInvite);

/** Schedule messages come back on paths inside it: put them on the fields that show them. */
function placeErrors(errors: Record<string, unknown>): FormErrors {
  const placed: FormErrors = {};
  for (const [path, message] of Object.entries(errors)) {
    if (typeof message !== 'string') continue;
    const field = path.split('.').pop() ?? path;
    if (path === 'schedule') placed.deviceIds = 'Choose the locks these times are for';
    else if (path.startsWith('schedule') && field === 'days') placed.days = 'Choose at least one day';
    else if (path.startsWith('schedule') && field === 'end') placed.end = 'Until must differ from From';
    else if (path.startsWith('schedule') && (field === 'start' || field === 'end')) {
      placed[field] = `${LABELS[field]} must be a time`;
    } else placed[path] = message;
  }
  return placed;
}

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
    initialValues: INITIAL,
    validate: (values) => placeErrors(resolve(values)),
  });
  useDirtyForm(form.isDirty());

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
      onInvited(await invite.mutateAsync(toInvite(values)));
    },
    labels: LABELS,
    adjustErrors: (errors) => placeErrors(errors),
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
        <TextInput
          label={LABELS.accessCode}
          description="Optional: the code they type on keypads, 4 to 12 digits. They can open at once."
          inputWrapperOrder={['label', 'input', 'description', 'error']}
          inputMode="numeric"
          autoComplete="off"
          maxLength={12}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          {...form.getInputProps('accessCode')}
          onChange={(event) => form.setFieldValue('accessCode', event.currentTarget.value.replace(/\D/g, ''))}
        />
        <Fieldset legend="When" variant="unstyled">
          <Stack gap="sm">
            <Switch
              label="Only on certain days and hours"
              description={
                form.values.limitTimes
                  ? "At each chosen lock, on the lock's own clock."
                  : 'Off: at any time. You can fine-tune per lock on their page later.'
              }
              {...form.getInputProps('limitTimes', { type: 'checkbox' })}
            />
            {form.values.limitTimes && (
              <>
                <Checkbox.Group label={LABELS.days} {...form.getInputProps('days')}>
                  <Group gap="sm" mt={6} wrap="wrap">
                    {WEEK_ORDER.map((day) => (
                      <Checkbox
                        key={day}
                        value={String(day)}
                        label={DAY_SHORT[day]}
                        aria-label={DAY_LONG[day]}
                      />
                    ))}
                  </Group>
                </Checkbox.Group>
                <SimpleGrid cols={2} spacing="md">
                  <ClockInput label={LABELS.start} {...form.getInputProps('start')} />
                  <ClockInput
                    label={LABELS.end}
                    description={
                      form.values.end && form.values.end < form.values.start
                        ? `Overnight: until ${form.values.end} the next day.`
                        : undefined
                    }
                    inputWrapperOrder={['label', 'input', 'description', 'error']}
                    {...form.getInputProps('end')}
                  />
                </SimpleGrid>
              </>
            )}
          </Stack>
        </Fieldset>
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
 * "Add person": an invitation by email with a name, role and optional groups, locks, access code
 * and times, in one request (POST user/invite). Nobody chooses a password for someone else.
 * Closing it with something typed asks first (FormModal).
 */
export function InviteMemberModal({ opened, onCancel, onInvited }: InviteMemberModalProps) {
  return (
    <FormModal opened={opened} onClose={onCancel} title="Add person">
      <InviteMemberForm onCancel={onCancel} onInvited={onInvited} />
    </FormModal>
  );
}
