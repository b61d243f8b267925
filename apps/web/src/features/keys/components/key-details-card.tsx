import { keyUpdateSchema, type Key, type KeyUpdate } from '@latchkey/shared';
import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useForm, type FormErrors } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { SectionCard } from '@/components/section-card';
import { ValidityFields } from '@/components/validity-fields';
import { formResolver, useFormMutation } from '@/lib/forms';
import { credentialClock, usePortalTimeZone, type CredentialClock } from '@/lib/zoned-time';
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

/** The form's values as the API's, the times read on `timeZone`'s clock (keyClock). */
const toInput =
  (key: Key, timeZone: string) =>
  (values: DetailsValues): KeyUpdate => ({
    name: values.name.trim(),
    number: key.type === 'physical' ? values.number.trim() || null : null,
    ...validityInput(values, timeZone),
  });

function validator(key: Key, timeZone: string) {
  const resolve = formResolver<DetailsValues>(keyUpdateSchema, LABELS, toInput(key, timeZone));
  return (values: DetailsValues): FormErrors => {
    const errors = checkValidity(values, resolve(values), timeZone);
    if (key.type === 'physical' && !values.number.trim())
      errors.number = 'Number is required for a physical key';
    return errors;
  };
}

/** Whose clock a key's times are on: its locks' (credentialClock), the portal's when they differ. */
function useKeyClock(key: Key): CredentialClock {
  const portalZone = usePortalTimeZone();
  return credentialClock(
    key.devices.flatMap((device) => (device.timeZone ? [device.timeZone] : [])),
    portalZone,
  );
}

/**
 * A key's name, number (physical keys) and validity (POST portal/keys/{id}), the validity on the
 * clock of its locks. The key page draws it anew when that clock changes (a lock linked).
 */
export function KeyDetailsCard({ keyRecord: key }: { keyRecord: Key }) {
  const update = useUpdateKey();
  const clock = useKeyClock(key);
  const form = useForm<DetailsValues>({
    mode: 'controlled',
    initialValues: { name: key.name, number: key.number ?? '', ...validityValues(key, clock.timeZone) },
    validate: validator(key, clock.timeZone),
  });

  const { submit } = useFormMutation(form, {
    run: async (values) => {
      const saved = await update.mutateAsync({ keyId: key._id, ...toInput(key, clock.timeZone)(values) });
      form.resetDirty({
        name: saved.name,
        number: saved.number ?? '',
        ...validityValues(saved, clock.timeZone),
      });
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
