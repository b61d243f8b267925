import { ALERT_KINDS, type AlertKind, type AlertRule } from '@latchkey/shared';
import {
  Alert,
  Button,
  Group,
  MultiSelect,
  NumberInput,
  Select,
  Stack,
  Switch,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { PersonSelect } from '@/features/people-picker/components/person-select';
import { LOCK_OPTIONS_LIMIT, useLockOptions } from '@/features/devices/api/get-devices';
import { FormModal, useDirtyForm } from '@/components/form-modal';
import { useFormMutation } from '@/lib/forms';
import { useSaveAlertRule } from '../api/save-alert-rule';
import { ALERT_KIND_LABELS } from './alert-text';

interface RuleValues {
  kind: AlertKind;
  name: string;
  minutes: number | string;
  count: number | string;
  userId: string | null;
  deviceIds: string[];
  email: boolean;
  enabled: boolean;
}

const LABELS: Record<keyof RuleValues, string> = {
  kind: 'Alert when',
  name: 'Name',
  minutes: 'Minutes',
  count: 'Refused attempts',
  userId: 'Person',
  deviceIds: 'Locks',
  email: 'Also mail the portal’s admins',
  enabled: 'On',
};

const usesMinutes = (kind: AlertKind) => kind === 'offline' || kind === 'denied_attempts';

function initialValues(rule?: AlertRule): RuleValues {
  return {
    kind: rule?.kind ?? 'tamper',
    name: rule?.name ?? '',
    minutes: rule?.minutes ?? 30,
    count: rule?.count ?? 5,
    userId: rule?.user?._id ?? null,
    deviceIds: rule?.devices.map((device) => device._id) ?? [],
    email: rule?.email ?? true,
    enabled: rule?.enabled ?? true,
  };
}

/** Adds a rule, or edits one; the server's 400 lands on the field it names. */
function AlertRuleForm({ onClose, rule }: { onClose: () => void; rule?: AlertRule }) {
  const save = useSaveAlertRule();
  const locks = useLockOptions();
  const form = useForm<RuleValues>({
    mode: 'controlled',
    initialValues: initialValues(rule),
    validate: {
      name: (value) => (value.trim() ? null : 'Name is required'),
      userId: (value, values) => (values.kind === 'user_access' && !value ? 'Choose the person' : null),
    },
  });
  const kind = form.values.kind;
  // Escape or a click outside asks before throwing away what was typed (FormModal).
  useDirtyForm(form.isDirty());

  // The rule's own locks stay choosable even beyond the first page of locks.
  const options = new Map((locks.data?.items ?? []).map((device) => [device._id, device.name]));
  for (const device of rule?.devices ?? [])
    if (!options.has(device._id)) options.set(device._id, device.name);

  const { submit } = useFormMutation(form, {
    run: async (values) => {
      const saved = await save.mutateAsync({
        ruleId: rule?._id,
        kind: values.kind,
        name: values.name.trim(),
        enabled: values.enabled,
        email: values.email,
        deviceIds: values.deviceIds,
        minutes: usesMinutes(values.kind) ? Number(values.minutes) : null,
        count: values.kind === 'denied_attempts' ? Number(values.count) : null,
        userId: values.kind === 'user_access' ? values.userId : null,
      });
      notifications.show({ color: 'teal', title: rule ? 'Rule saved' : 'Rule added', message: saved.name });
      onClose();
    },
    labels: LABELS,
    otherwise: (message) => form.setErrors({ form: message }),
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        {form.errors.form && (
          <Alert color="red" variant="light" role="alert">
            {form.errors.form}
          </Alert>
        )}
        <Select
          label={LABELS.kind}
          data={ALERT_KINDS.map((value) => ({ value, label: ALERT_KIND_LABELS[value] }))}
          allowDeselect={false}
          {...form.getInputProps('kind')}
        />
        <TextInput
          label={LABELS.name}
          required
          placeholder="e.g. Back gate forced"
          {...form.getInputProps('name')}
        />
        {kind === 'denied_attempts' && (
          <NumberInput label={LABELS.count} min={1} max={100} required {...form.getInputProps('count')} />
        )}
        {usesMinutes(kind) && (
          <NumberInput
            label={kind === 'offline' ? 'Offline for longer than (minutes)' : 'Within (minutes)'}
            min={1}
            max={1440}
            required
            {...form.getInputProps('minutes')}
          />
        )}
        {kind === 'user_access' && (
          <PersonSelect
            label={LABELS.userId}
            required
            value={form.values.userId}
            onChange={(userId) => form.setFieldValue('userId', userId)}
            error={form.errors.userId}
          />
        )}
        <MultiSelect
          label={LABELS.deviceIds}
          description={`None chosen: every lock${(locks.data?.total ?? 0) > LOCK_OPTIONS_LIMIT ? ` (the first ${LOCK_OPTIONS_LIMIT} by name are offered)` : ''}.`}
          placeholder={form.values.deviceIds.length ? undefined : 'Every lock'}
          data={[...options].map(([value, label]) => ({ value, label }))}
          searchable
          clearable
          {...form.getInputProps('deviceIds')}
        />
        <Switch label={LABELS.email} {...form.getInputProps('email', { type: 'checkbox' })} />
        <Switch label={LABELS.enabled} {...form.getInputProps('enabled', { type: 'checkbox' })} />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={save.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            {rule ? 'Save rule' : 'Add rule'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Adds or edits an alert rule, in a dialog that asks before discarding what was typed. */
export function AlertRuleModal({
  opened,
  onClose,
  rule,
}: {
  opened: boolean;
  onClose: () => void;
  rule?: AlertRule;
}) {
  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      title={rule ? 'Edit alert rule' : 'Add an alert rule'}
      centered
      size="lg"
    >
      <AlertRuleForm onClose={onClose} rule={rule} />
    </FormModal>
  );
}
