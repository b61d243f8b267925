import { codeLockCreateSchema, LOCK_MODELS, type DeviceCreated } from '@latchkey/shared';
import { Button, Group, Modal, PasswordInput, Select, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMemo, useState } from 'react';
import { formResolver, useFormMutation } from '@/lib/forms';
import { timeZones } from '@/lib/format';
import { useCreateCodeLock } from '../api/create-code-lock';
import { PlanLimitAlert } from './plan-limit-alert';

interface CodeLockValues {
  name: string;
  code: string;
  timeZone: string;
}

const LABELS: Record<keyof CodeLockValues, string> = {
  name: 'Name',
  code: 'Master code',
  timeZone: 'Time zone',
};

const { min: CODE_MIN, max: CODE_MAX } = LOCK_MODELS['generic-codelock'].codeLength;

const toInput = (values: CodeLockValues) => ({
  name: values.name,
  code: values.code,
  timeZone: values.timeZone,
});

const resolve = formResolver<CodeLockValues>(codeLockCreateSchema, LABELS, toInput);

function validate(values: CodeLockValues) {
  const errors = resolve(values);
  if (!errors.code && (values.code.length < CODE_MIN || values.code.length > CODE_MAX)) {
    errors.code = `Master code must be ${CODE_MIN} to ${CODE_MAX} digits`;
  }
  if (errors.timeZone && !values.timeZone) errors.timeZone = 'Choose the time zone the lock is in';
  return errors;
}

interface AddCodeLockFormProps {
  defaultTimeZone: string;
  onCreated: (created: DeviceCreated) => void;
  onCancel: () => void;
}

function AddCodeLockForm({ defaultTimeZone, onCreated, onCancel }: AddCodeLockFormProps) {
  const create = useCreateCodeLock();
  const zones = useMemo(() => timeZones(defaultTimeZone), [defaultTimeZone]);
  // The plan's refusal (402): shown in the form with the way to the plans.
  const [planRefusal, setPlanRefusal] = useState<string | null>(null);
  const form = useForm<CodeLockValues>({
    mode: 'controlled',
    initialValues: { name: '', code: '', timeZone: defaultTimeZone },
    validate,
  });

  const { submit } = useFormMutation(form, {
    run: async (values) => {
      onCreated(await create.mutateAsync(toInput(values)));
    },
    labels: LABELS,
    onStatus: { 402: (message) => setPlanRefusal(message) },
    otherwise: 'Could not add the code lock',
  });

  return (
    <form onSubmit={submit} noValidate aria-label="Add code lock">
      <Stack gap="md">
        {planRefusal && <PlanLimitAlert message={planRefusal} />}
        <TextInput
          label={LABELS.name}
          placeholder="Storeroom keypad"
          required
          maxLength={80}
          data-autofocus
          {...form.getInputProps('name')}
        />
        <PasswordInput
          label={LABELS.code}
          description={`${CODE_MIN} to ${CODE_MAX} digits. Program it into the keypad: it opens the lock at any time, for admins.`}
          inputWrapperOrder={['label', 'input', 'description', 'error']}
          required
          inputMode="numeric"
          autoComplete="off"
          maxLength={CODE_MAX}
          visibilityToggleButtonProps={{ 'aria-label': 'Show or hide the master code' }}
          {...form.getInputProps('code')}
          onChange={(event) => form.setFieldValue('code', event.currentTarget.value.replace(/\D/g, ''))}
        />
        <Select
          label={LABELS.timeZone}
          description="Schedules at this lock follow its own clock."
          data={zones}
          searchable
          limit={50}
          allowDeselect={false}
          nothingFoundMessage="No matching time zone"
          required
          comboboxProps={{ withinPortal: true }}
          {...form.getInputProps('timeZone')}
          onChange={(value) => form.setFieldValue('timeZone', value ?? '')}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={create.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={create.isPending}>
            Add code lock
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

interface AddCodeLockModalProps extends AddCodeLockFormProps {
  opened: boolean;
}

/** "Add code lock": a keypad-only lock with its name, master code and time zone (the portal's by default). */
export function AddCodeLockModal({ opened, onCancel, ...props }: AddCodeLockModalProps) {
  return (
    <Modal
      opened={opened}
      onClose={onCancel}
      title="Add code lock"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <AddCodeLockForm onCancel={onCancel} {...props} />
    </Modal>
  );
}
