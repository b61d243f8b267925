import { deviceCreateSchema, type DeviceCreated, type LockModel } from '@latchkey/shared';
import { Button, Group, Select, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMemo, useState } from 'react';
import { FormModal, useDirtyForm } from '@/components/form-modal';
import { formResolver, useFormMutation } from '@/lib/forms';
import { timeZones } from '@/lib/format';
import { useCreateDevice } from '../api/create-device';
import { MODEL_OPTIONS } from './device-status';
import { PlanLimitAlert } from './plan-limit-alert';

interface AddDeviceValues {
  name: string;
  model: string;
  timeZone: string;
  serial: string;
}

const LABELS: Record<keyof AddDeviceValues, string> = {
  name: 'Name',
  model: 'Model',
  timeZone: 'Time zone',
  serial: 'Serial number',
};

const toInput = (values: AddDeviceValues) => ({
  name: values.name,
  model: values.model || undefined,
  timeZone: values.timeZone,
  serial: values.serial.trim() || undefined,
});

const resolve = formResolver<AddDeviceValues>(deviceCreateSchema, LABELS, toInput);

function validate(values: AddDeviceValues) {
  const errors = resolve(values);
  if (errors.model) errors.model = "Choose the lock's model";
  if (errors.timeZone && !values.timeZone) errors.timeZone = 'Choose the time zone the lock is in';
  return errors;
}

interface AddDeviceFormProps {
  defaultTimeZone: string;
  onCreated: (created: DeviceCreated) => void;
  onCancel: () => void;
}

function AddDeviceForm({ defaultTimeZone, onCreated, onCancel }: AddDeviceFormProps) {
  const create = useCreateDevice();
  const zones = useMemo(() => timeZones(defaultTimeZone), [defaultTimeZone]);
  // The plan's refusal (402): shown in the form with the way to the plans.
  const [planRefusal, setPlanRefusal] = useState<string | null>(null);
  const form = useForm<AddDeviceValues>({
    mode: 'controlled',
    initialValues: { name: '', model: '', timeZone: defaultTimeZone, serial: '' },
    validate,
  });
  // Escape or a click outside asks before throwing away what was typed (FormModal).
  useDirtyForm(form.isDirty());

  const { submit } = useFormMutation(form, {
    run: async (values) => {
      const input = toInput(values);
      const created = await create.mutateAsync({ ...input, model: input.model as LockModel });
      onCreated(created);
    },
    labels: LABELS,
    onStatus: { 402: (message) => setPlanRefusal(message) },
    otherwise: 'Could not add the lock',
  });

  return (
    <form onSubmit={submit} noValidate aria-label="Add lock">
      <Stack gap="md">
        {planRefusal && <PlanLimitAlert message={planRefusal} />}
        <TextInput
          label={LABELS.name}
          placeholder="Front door"
          required
          maxLength={80}
          data-autofocus
          {...form.getInputProps('name')}
        />
        <Select
          label={LABELS.model}
          placeholder="Choose a model"
          data={MODEL_OPTIONS}
          required
          allowDeselect={false}
          comboboxProps={{ withinPortal: true }}
          {...form.getInputProps('model')}
          onChange={(value) => form.setFieldValue('model', value ?? '')}
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
        <TextInput
          label={LABELS.serial}
          description="Optional: printed on the lock or its box."
          maxLength={64}
          autoComplete="off"
          {...form.getInputProps('serial')}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={create.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={create.isPending}>
            Add lock
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

interface AddDeviceModalProps extends AddDeviceFormProps {
  opened: boolean;
}

/** "Add lock": name, model, time zone (the portal's by default) and an optional serial. */
export function AddDeviceModal({ opened, onCancel, ...props }: AddDeviceModalProps) {
  return (
    <FormModal opened={opened} onClose={onCancel} title="Add lock">
      <AddDeviceForm onCancel={onCancel} {...props} />
    </FormModal>
  );
}
