import { keyCreateSchema, type Key, type KeyCreate, type KeyType } from '@latchkey/shared';
import { Alert, Button, Group, Input, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { useForm, type FormErrors } from '@mantine/form';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useState } from 'react';
import { PersonSelect } from '@/features/people-picker/components/person-select';
import { ValidityFields } from '@/components/validity-fields';
import { KEY_TYPE_OPTIONS } from '@/lib/credential-labels';
import { FormModal, useDirtyForm } from '@/components/form-modal';
import { formResolver, useFormMutation } from '@/lib/forms';
import { credentialClock, usePortalTimeZone } from '@/lib/zoned-time';
import {
  checkValidity,
  friendlyValidity,
  VALIDITY_LABELS,
  validityInput,
  type ValidityValues,
} from '@/lib/validity';
import { useCreateKey } from '../api/create-key';
import { LockMultiSelect } from './lock-multi-select';

interface KeyValues extends ValidityValues {
  name: string;
  type: KeyType;
  number: string;
  userId: string | null;
  deviceIds: string[];
}

const LABELS: Record<keyof KeyValues, string> = {
  name: 'Name',
  type: 'Type',
  number: 'Number',
  userId: 'Holder',
  deviceIds: 'Locks',
  ...VALIDITY_LABELS,
};

const TYPE_HINTS: Record<KeyType, string> = {
  physical: 'A cut key with a number stamped on it: track who holds it and which doors it fits.',
  digital: 'A credential the lock checks: it works only at the locks you link it to.',
};

/** The form's values as the API's, the times read on `timeZone`'s clock (the chosen locks'). */
const toInput =
  (timeZone: string) =>
  (values: KeyValues): KeyCreate => ({
    name: values.name.trim(),
    type: values.type,
    number: values.type === 'physical' ? values.number.trim() || null : null,
    userId: values.userId,
    deviceIds: values.deviceIds,
    ...validityInput(values, timeZone),
  });

function validate(values: KeyValues, timeZone: string): FormErrors {
  const resolve = formResolver<KeyValues>(keyCreateSchema, LABELS, toInput(timeZone));
  const errors = checkValidity(values, resolve(values), timeZone);
  // The schema checks the number only once the rest is valid: say it at once.
  if (values.type === 'physical' && !values.number.trim()) {
    errors.number = 'Number is required for a physical key';
  }
  return errors;
}

interface NewKeyFormProps {
  onCreated: (key: Key) => void;
  onCancel: () => void;
}

function NewKeyForm({ onCreated, onCancel }: NewKeyFormProps) {
  const create = useCreateKey();
  const [failure, setFailure] = useState<string | null>(null);
  // The key's times are on the clock of the locks it is for (the portal's until they are chosen).
  const [lockZones, setLockZones] = useState<string[]>([]);
  const clock = credentialClock(lockZones, usePortalTimeZone());
  const form = useForm<KeyValues>({
    mode: 'controlled',
    initialValues: {
      name: '',
      type: 'physical',
      number: '',
      userId: null,
      deviceIds: [],
      validFrom: '',
      validUntil: '',
    },
    validate: (values) => validate(values, clock.timeZone),
  });
  // Escape or a click outside asks before throwing away what was typed (FormModal).
  useDirtyForm(form.isDirty());

  const { submit } = useFormMutation(form, {
    run: async (values) => {
      setFailure(null);
      onCreated(await create.mutateAsync(toInput(clock.timeZone)(values)));
    },
    labels: LABELS,
    adjustErrors: (errors) => friendlyValidity(errors),
    onStatus: { 409: 'number' },
    otherwise: (message) => setFailure(message),
  });

  const physical = form.values.type === 'physical';

  return (
    <form onSubmit={submit} noValidate aria-label="New key">
      <Stack gap="md">
        {failure && (
          <Alert color="red" variant="light" icon={<IconAlertTriangle aria-hidden="true" />} role="alert">
            {failure}
          </Alert>
        )}
        <TextInput
          label={LABELS.name}
          placeholder="Main entrance key"
          required
          maxLength={80}
          data-autofocus
          {...form.getInputProps('name')}
        />
        <Input.Wrapper
          label={LABELS.type}
          description={TYPE_HINTS[form.values.type]}
          inputWrapperOrder={['label', 'input', 'description']}
          styles={{ description: { marginTop: 6 } }}
        >
          <SegmentedControl
            fullWidth
            data={KEY_TYPE_OPTIONS}
            value={form.values.type}
            onChange={(value) => {
              form.setFieldValue('type', value as KeyType);
              form.clearFieldError('number');
            }}
            aria-label={LABELS.type}
          />
        </Input.Wrapper>
        {physical && (
          <TextInput
            label={LABELS.number}
            description="The number stamped on the key; no two keys in use share one."
            inputWrapperOrder={['label', 'input', 'description', 'error']}
            placeholder="A-017"
            required
            maxLength={40}
            autoComplete="off"
            {...form.getInputProps('number')}
          />
        )}
        <PersonSelect
          label={LABELS.userId}
          description="Optional: who gets the key now."
          inputWrapperOrder={['label', 'input', 'description', 'error']}
          value={form.values.userId}
          onChange={(userId) => form.setFieldValue('userId', userId)}
          error={form.errors.userId}
        />
        <LockMultiSelect
          label={LABELS.deviceIds}
          description={physical ? 'The locks it fits.' : 'The locks it opens.'}
          inputWrapperOrder={['label', 'input', 'description', 'error']}
          placeholder={form.values.deviceIds.length ? undefined : 'Search the portal’s locks'}
          value={form.values.deviceIds}
          onChange={(ids) => form.setFieldValue('deviceIds', ids)}
          onZonesChange={setLockZones}
          error={form.errors.deviceIds}
        />
        <ValidityFields
          from={form.getInputProps('validFrom')}
          until={form.getInputProps('validUntil')}
          clock={clock.says}
        />
        {clock.note && (
          <Text size="xs" c="dimmed">
            {clock.note}
          </Text>
        )}
        <Text size="xs" c="dimmed">
          A key outside its validity opens nothing.
        </Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={create.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={create.isPending}>
            Create key
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

interface NewKeyModalProps extends NewKeyFormProps {
  opened: boolean;
}

/** "New key": name, type, number (physical), holder, locks and validity. */
export function NewKeyModal({ opened, onCreated, onCancel }: NewKeyModalProps) {
  return (
    <FormModal opened={opened} onClose={onCancel} title="New key" size="lg">
      <NewKeyForm onCreated={onCreated} onCancel={onCancel} />
    </FormModal>
  );
}
