import {
  fingerprintCreateSchema,
  type Finger,
  type Fingerprint,
  type FingerprintCreate,
  type PortalMember,
} from '@latchkey/shared';
import { Alert, Button, Group, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useForm, type FormErrors } from '@mantine/form';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useState } from 'react';
import { QueryError } from '@/components/query-error';
import { ValidityFields } from '@/components/validity-fields';
import type { ApiError } from '@/lib/api-client';
import { FINGER_OPTIONS } from '@/lib/credential-labels';
import { fieldMessage } from '@/lib/errors';
import { FormModal, useDirtyForm } from '@/components/form-modal';
import { formResolver, useFormMutation } from '@/lib/forms';
import { displayName } from '@/lib/session';
import { credentialClock, usePortalTimeZone } from '@/lib/zoned-time';
import {
  checkValidity,
  friendlyValidity,
  VALIDITY_LABELS,
  validityInput,
  type ValidityValues,
} from '@/lib/validity';
import { useMemberDevices } from '../api/get-member-devices';
import { useRecordFingerprint } from '../api/record-fingerprint';
import { ReaderCapture } from '@/features/readers/components/reader-capture';

interface FingerprintValues extends ValidityValues {
  deviceId: string | null;
  finger: Finger | null;
  templateId: string;
  name: string;
}

const LABELS: Record<keyof FingerprintValues, string> = {
  deviceId: 'Lock',
  finger: 'Finger',
  templateId: 'Template id',
  name: 'Label',
  ...VALIDITY_LABELS,
};

/** The form's values as the API's, the times read on `timeZone`'s clock (the chosen lock's). */
const toInput =
  (userId: string, timeZone: string) =>
  (values: FingerprintValues): FingerprintCreate => ({
    deviceId: values.deviceId ?? '',
    userId,
    // The schema names a missing finger; the form says it in its own words below.
    finger: (values.finger ?? '') as Finger,
    templateId: values.templateId.trim(),
    name: values.name.trim(),
    ...validityInput(values, timeZone),
  });

function validator(userId: string, timeZone: string) {
  const resolve = formResolver<FingerprintValues>(fingerprintCreateSchema, LABELS, toInput(userId, timeZone));
  return (values: FingerprintValues): FormErrors => {
    const errors = checkValidity(values, resolve(values), timeZone);
    if (!values.deviceId) errors.deviceId = 'Choose the lock the finger was enrolled at';
    if (!values.finger) errors.finger = 'Choose the finger';
    if (!values.templateId.trim()) errors.templateId = 'Enter the template id the lock gave the finger';
    return errors;
  };
}

/** A 400 answer's field errors, and "cannot reach the lock" (about userId) on the lock. */
function withPersonOnLock(errors: FormErrors, error: ApiError): FormErrors {
  const person = error.details.find((detail) => detail.path.split(/[./]/).pop() === 'userId');
  if (person && !errors.deviceId) return { ...errors, deviceId: fieldMessage(undefined, person.message) };
  return errors;
}

interface RecordFingerprintFormProps {
  member: PortalMember;
  onRecorded: (fingerprint: Fingerprint) => void;
  onCancel: () => void;
}

function RecordFingerprintForm({ member, onRecorded, onCancel }: RecordFingerprintFormProps) {
  const record = useRecordFingerprint();
  const locks = useMemberDevices(member._id);
  const [failure, setFailure] = useState<string | null>(null);
  const portalZone = usePortalTimeZone();
  const form = useForm<FingerprintValues>({
    mode: 'controlled',
    initialValues: { deviceId: null, finger: null, templateId: '', name: '', validFrom: '', validUntil: '' },
    // The finger opens one lock: its times are on that lock's clock (the portal's until one is chosen).
    validate: (values) => validator(member._id, clockOf(values.deviceId).timeZone)(values),
  });
  useDirtyForm(form.isDirty());
  const clockOf = (deviceId: string | null) => {
    const zone = (locks.data ?? []).find((lock) => lock._id === deviceId)?.timeZone;
    return credentialClock(zone ? [zone] : [], portalZone);
  };
  const clock = clockOf(form.values.deviceId);
  const lockOptions = (locks.data ?? []).map((lock) => ({ value: lock._id, label: lock.name }));
  const noLocks = locks.isSuccess && lockOptions.length === 0;

  const { submit } = useFormMutation(form, {
    run: async (values) => {
      setFailure(null);
      onRecorded(await record.mutateAsync(toInput(member._id, clock.timeZone)(values)));
    },
    labels: LABELS,
    adjustErrors: (errors, error) => withPersonOnLock(friendlyValidity(errors), error),
    onStatus: { 409: 'templateId' },
    otherwise: (message) => setFailure(message),
  });

  if (locks.error) {
    return (
      <QueryError
        title="Could not load their locks"
        error={locks.error}
        onRetry={() => void locks.refetch()}
      />
    );
  }

  return (
    <form onSubmit={submit} noValidate aria-label="Record fingerprint">
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          Enrol the finger on the lock&apos;s reader first, then record here the template id the lock gave it.
        </Text>
        {failure && (
          <Alert color="red" variant="light" icon={<IconAlertTriangle aria-hidden="true" />} role="alert">
            {failure}
          </Alert>
        )}
        {noLocks && (
          <Alert color="yellow" variant="light" icon={<IconAlertTriangle aria-hidden="true" />}>
            {displayName(member)} cannot open any lock yet. Give them access to a lock in the Locks section
            first.
          </Alert>
        )}
        <Select
          label={LABELS.deviceId}
          description="One of the locks they can open."
          inputWrapperOrder={['label', 'input', 'description', 'error']}
          placeholder={locks.isPending ? 'Loading…' : 'Choose a lock'}
          data={lockOptions}
          searchable
          required
          disabled={noLocks}
          nothingFoundMessage="No lock matches"
          comboboxProps={{ withinPortal: true }}
          {...form.getInputProps('deviceId')}
        />
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
          <Select
            label={LABELS.finger}
            placeholder="Choose a finger"
            data={FINGER_OPTIONS}
            required
            comboboxProps={{ withinPortal: true }}
            {...form.getInputProps('finger')}
          />
          <TextInput
            label={LABELS.templateId}
            placeholder="17"
            required
            maxLength={64}
            autoComplete="off"
            spellCheck={false}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            {...form.getInputProps('templateId')}
          />
        </SimpleGrid>
        {/* "Scan a finger now": a paired desk reader fills the template id (features/readers). */}
        <ReaderCapture
          kind="fingerprint"
          userId={member._id}
          onCaptured={(templateId) => form.setFieldValue('templateId', templateId)}
        />
        <TextInput
          label={LABELS.name}
          description="Optional: how to tell this fingerprint apart."
          inputWrapperOrder={['label', 'input', 'description', 'error']}
          maxLength={80}
          {...form.getInputProps('name')}
        />
        <ValidityFields
          from={form.getInputProps('validFrom')}
          until={form.getInputProps('validUntil')}
          clock={clock.says}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={record.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={record.isPending} disabled={noLocks}>
            Record fingerprint
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

interface RecordFingerprintModalProps extends RecordFingerprintFormProps {
  opened: boolean;
}

/** "Record fingerprint" for a person: the lock it was enrolled at, the finger and its template id. */
export function RecordFingerprintModal({
  opened,
  member,
  onCancel,
  onRecorded,
}: RecordFingerprintModalProps) {
  return (
    <FormModal
      opened={opened}
      onClose={onCancel}
      title={`Record a fingerprint for ${displayName(member)}`}
      size="lg"
    >
      <RecordFingerprintForm member={member} onCancel={onCancel} onRecorded={onRecorded} />
    </FormModal>
  );
}
