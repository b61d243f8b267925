import { keyUpdateSchema, type Key, type KeyUpdate } from '@latchkey/shared';
import { Button, Group, Stack, TextInput } from '@mantine/core';
import { useForm, type FormErrors } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { SectionCard } from '@/components/section-card';
import { ValidityFields } from '@/components/validity-fields';
import { formResolver, useFormMutation } from '@/lib/forms';
import {
  checkValidity,
  friendlyValidity,
  VALIDITY_LABELS,
  validityInput,
  validityValues,
  type ValidityValues,
} from '@/lib/validity';
import { useUpdateKey } from '../api/update-key';

interface DetailsValues extends ValidityValues {
  name: string;
  number: string;
}

const LABELS: Record<keyof DetailsValues, string> = {
  name: 'Name',
  number: 'Number',
  ...VALIDITY_LABELS,
};

const toInput =
  (key: Key) =>
  (values: DetailsValues): KeyUpdate => ({
    name: values.name.trim(),
    number: key.type === 'physical' ? values.number.trim() || null : null,
    ...validityInput(values),
  });

function validator(key: Key) {
  const resolve = formResolver<DetailsValues>(keyUpdateSchema, LABELS, toInput(key));
  return (values: DetailsValues): FormErrors => {
    const errors = checkValidity(values, resolve(values));
    if (key.type === 'physical' && !values.number.trim())
      errors.number = 'Number is required for a physical key';
    return errors;
  };
}

/** A key's name, number (physical keys) and validity (POST portal/keys/{id}). */
export function KeyDetailsCard({ keyRecord: key }: { keyRecord: Key }) {
  const update = useUpdateKey();
  const form = useForm<DetailsValues>({
    mode: 'controlled',
    initialValues: { name: key.name, number: key.number ?? '', ...validityValues(key) },
    validate: validator(key),
  });

  const { submit } = useFormMutation(form, {
    run: async (values) => {
      const saved = await update.mutateAsync({ keyId: key._id, ...toInput(key)(values) });
      form.resetDirty({ name: saved.name, number: saved.number ?? '', ...validityValues(saved) });
      notifications.show({ color: 'teal', title: 'Key saved', message: `${saved.name} is up to date.` });
    },
    labels: LABELS,
    adjustErrors: (errors) => friendlyValidity(errors),
    onStatus: { 409: 'number' },
    otherwise: 'Could not save the key',
  });

  return (
    <SectionCard title="Details">
      <form onSubmit={submit} noValidate aria-label="Key details">
        <Stack gap="md">
          <TextInput label={LABELS.name} required maxLength={80} {...form.getInputProps('name')} />
          {key.type === 'physical' ? (
            <TextInput
              label={LABELS.number}
              description="The number stamped on the key."
              inputWrapperOrder={['label', 'input', 'description', 'error']}
              required
              maxLength={40}
              autoComplete="off"
              {...form.getInputProps('number')}
            />
          ) : (
            <TextInput
              label="Secret"
              value="Kept by the server, never shown"
              readOnly
              variant="filled"
              description="A digital key is a credential the lock checks; it has no number."
            />
          )}
          <ValidityFields from={form.getInputProps('validFrom')} until={form.getInputProps('validUntil')} />
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
