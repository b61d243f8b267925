import {
  deviceInviteInputSchema,
  LOCK_MODELS,
  type Device,
  type DeviceInvite,
  type DeviceInviteInput,
} from '@latchkey/shared';
import { Alert, Button, Checkbox, Group, SimpleGrid, Stack, Switch, TextInput } from '@mantine/core';
import { useForm, type FormErrors } from '@mantine/form';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useState } from 'react';
import { ClockInput } from '@/components/clock-input';
import { FormModal, useDirtyForm } from '@/components/form-modal';
import { DAY_LONG, DAY_SHORT, WEEK_ORDER } from '@/components/schedule/describe-schedule';
import { formResolver, useFormMutation } from '@/lib/forms';
import { wallClockAt } from '@/lib/zoned-time';
import { useCreateDeviceInvite } from '../api/create-device-invite';
import { useUpdateDeviceInvite } from '../api/update-device-invite';

interface InviteValues {
  name: string;
  email: string;
  phone: string;
  /** Checked weekdays, '0' = Sunday … '6' = Saturday. */
  days: string[];
  allDay: boolean;
  start: string;
  end: string;
  startDate: string;
  endDate: string;
  code: string;
  send: boolean;
}

const LABELS: Record<Exclude<keyof InviteValues, 'allDay'>, string> = {
  name: 'Name',
  email: 'Email',
  phone: 'Phone',
  days: 'Days',
  start: 'From',
  end: 'Until',
  startDate: 'First day',
  endDate: 'Last day',
  code: 'Code',
  send: 'Email the code to the guest',
};

/** 'YYYY-MM-DD' plus `days` calendar days. */
function addDays(date: string, days: number): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const utc = new Date(Date.UTC(year, month - 1, day + days));
  return utc.toISOString().slice(0, 10);
}

function initialValues(device: Device, invite: DeviceInvite | null): InviteValues {
  if (invite) {
    const allDay = invite.start === '00:00' && invite.end === '24:00';
    return {
      name: invite.name,
      email: invite.email ?? '',
      phone: invite.phone ?? '',
      days: invite.days.map(String),
      allDay,
      start: allDay ? '09:00' : invite.start,
      // A time input cannot show 24:00; 00:00 ends at the same midnight.
      end: allDay ? '17:00' : invite.end === '24:00' ? '00:00' : invite.end,
      startDate: invite.startDate,
      endDate: invite.endDate,
      code: '',
      send: false,
    };
  }
  const today = wallClockAt(new Date(), device.timeZone).slice(0, 10);
  return {
    name: '',
    email: '',
    phone: '',
    days: ['1', '2', '3', '4', '5'],
    allDay: false,
    start: '09:00',
    end: '17:00',
    startDate: today,
    endDate: addDays(today, 6),
    code: '',
    // A new guest with an email gets it mailed unless the box is cleared (issue 19): typing the
    // address is the sign the admin wants it sent.
    send: true,
  };
}

function toInput(values: InviteValues): DeviceInviteInput {
  return {
    name: values.name,
    email: values.email.trim(),
    phone: values.phone.trim(),
    days: values.days.map(Number).sort((a, b) => a - b),
    start: values.allDay ? '00:00' : values.start,
    end: values.allDay ? '24:00' : values.end,
    startDate: values.startDate,
    endDate: values.endDate,
    code: values.code.trim() || undefined,
    // No address, nothing to send: the box only counts once there is one.
    send: values.send && values.email.trim() !== '',
  };
}

const resolve = formResolver<InviteValues>(deviceInviteInputSchema, LABELS, toInput);

/** The schema's cross-field messages name fields by their keys: say them with the labels. */
function tidy<E extends Record<string, unknown>>(errors: E): E {
  const tidied: Record<string, unknown> = { ...errors };
  if (typeof tidied.end === 'string' && /differ/.test(tidied.end)) {
    tidied.end = 'Until must differ from From (use "All day" for the whole day)';
  }
  if (typeof tidied.endDate === 'string' && /before/.test(tidied.endDate)) {
    tidied.endDate = 'The last day must not be before the first day';
  }
  return tidied as E;
}

function validate(values: InviteValues): FormErrors {
  const errors = tidy(resolve(values));
  if (!values.startDate) errors.startDate = 'Choose the first day';
  if (!values.endDate) errors.endDate = 'Choose the last day';
  if (values.days.length === 0) errors.days = 'Choose at least one day';
  return errors;
}

interface InviteFormProps {
  device: Device;
  /** The invite to change; null invites a new guest. */
  invite: DeviceInvite | null;
  onSaved: (invite: DeviceInvite, sent: boolean) => void;
  onCancel: () => void;
}

function InviteForm({ device, invite, onSaved, onCancel }: InviteFormProps) {
  const create = useCreateDeviceInvite();
  const update = useUpdateDeviceInvite();
  const saving = create.isPending || update.isPending;
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<InviteValues>({
    mode: 'controlled',
    initialValues: initialValues(device, invite),
    validate,
  });
  useDirtyForm(form.isDirty());
  const codeLength = LOCK_MODELS[device.model].codeLength;
  const codeRule = codeLength ? `${codeLength.min} to ${codeLength.max} digits` : 'digits';

  const { submit } = useFormMutation(form, {
    run: async (values) => {
      setFailure(null);
      const input = toInput(values);
      const saved = invite
        ? await update.mutateAsync({ deviceId: device._id, inviteId: invite._id, ...input })
        : await create.mutateAsync({ deviceId: device._id, ...input });
      onSaved(saved, input.send ?? false);
    },
    labels: LABELS,
    adjustErrors: (errors) => tidy(errors),
    onStatus: { 409: 'code' },
    otherwise: (message) => setFailure(message),
  });

  const timeHint =
    form.values.end && form.values.start && form.values.end <= form.values.start
      ? `Overnight: until ${form.values.end} the next day.`
      : `On the lock's clock (${device.timeZone}).`;

  return (
    <form onSubmit={submit} noValidate aria-label={invite ? 'Edit guest invite' : 'Invite a guest'}>
      <Stack gap="md">
        {failure && (
          <Alert color="red" variant="light" icon={<IconAlertTriangle aria-hidden="true" />} role="alert">
            {failure}
          </Alert>
        )}
        <TextInput
          label={LABELS.name}
          placeholder="Sam the plumber"
          required
          maxLength={80}
          data-autofocus
          {...form.getInputProps('name')}
        />
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
          <TextInput
            type="email"
            label={LABELS.email}
            description="Optional: where the invitation goes."
            inputWrapperOrder={['label', 'input', 'description', 'error']}
            autoComplete="off"
            maxLength={254}
            {...form.getInputProps('email')}
          />
          <TextInput
            type="tel"
            label={LABELS.phone}
            description="Optional, for you to reach them."
            inputWrapperOrder={['label', 'input', 'description', 'error']}
            autoComplete="off"
            maxLength={32}
            {...form.getInputProps('phone')}
          />
        </SimpleGrid>
        <Checkbox.Group label={LABELS.days} required {...form.getInputProps('days')}>
          <Group gap="sm" mt={6} wrap="wrap">
            {WEEK_ORDER.map((day) => (
              <Checkbox key={day} value={String(day)} label={DAY_SHORT[day]} aria-label={DAY_LONG[day]} />
            ))}
          </Group>
        </Checkbox.Group>
        <Switch label="All day" {...form.getInputProps('allDay', { type: 'checkbox' })} />
        {!form.values.allDay && (
          <SimpleGrid cols={2} spacing="md">
            <ClockInput label={LABELS.start} required {...form.getInputProps('start')} />
            <ClockInput
              label={LABELS.end}
              required
              description={timeHint}
              inputWrapperOrder={['label', 'input', 'description', 'error']}
              {...form.getInputProps('end')}
            />
          </SimpleGrid>
        )}
        <SimpleGrid cols={2} spacing="md">
          <TextInput
            type="date"
            label={LABELS.startDate}
            required
            max={form.values.endDate || undefined}
            {...form.getInputProps('startDate')}
          />
          <TextInput
            type="date"
            label={LABELS.endDate}
            required
            min={form.values.startDate || undefined}
            {...form.getInputProps('endDate')}
          />
        </SimpleGrid>
        <TextInput
          label={LABELS.code}
          description={
            invite
              ? `Leave empty to keep their code; a new one must be ${codeRule}.`
              : `Leave empty and Latchkey picks one; yours must be ${codeRule}.`
          }
          inputWrapperOrder={['label', 'input', 'description', 'error']}
          inputMode="numeric"
          autoComplete="off"
          maxLength={32}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          {...form.getInputProps('code')}
          onChange={(event) => form.setFieldValue('code', event.currentTarget.value.replace(/\D/g, ''))}
        />
        <Checkbox
          label={LABELS.send}
          disabled={!form.values.email.trim()}
          description={
            !form.values.email.trim()
              ? 'Type their email above to send it.'
              : invite
                ? 'Sends the invitation again with the saved details.'
                : undefined
          }
          {...form.getInputProps('send', { type: 'checkbox' })}
          checked={form.values.send && form.values.email.trim() !== ''}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={saving}>
            Cancel
          </Button>
          <Button type="submit" loading={saving}>
            {invite ? 'Save invite' : 'Invite guest'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

interface InviteGuestModalProps extends Omit<InviteFormProps, 'invite'> {
  opened: boolean;
  invite: DeviceInvite | null;
}

/** "Invite a guest" (or edit one): who, which days and times between which dates, and their code. */
export function InviteGuestModal({ opened, invite, onCancel, ...props }: InviteGuestModalProps) {
  return (
    <FormModal
      opened={opened}
      onClose={onCancel}
      title={invite ? `Edit the invite of ${invite.name}` : `Invite a guest to ${props.device.name}`}
      size="lg"
    >
      {/* A fresh form per invite: the key resets its values. */}
      <InviteForm key={invite?._id ?? 'new'} invite={invite} onCancel={onCancel} {...props} />
    </FormModal>
  );
}
