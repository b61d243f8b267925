import { rfidInputSchema, type PortalMember, type RfidCard, type RfidInput } from '@latchkey/shared';
import { Alert, Button, Group, Stack, TextInput } from '@mantine/core';
import { useForm, type FormErrors } from '@mantine/form';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useState } from 'react';
import { ValidityFields } from '@/components/validity-fields';
import { FormModal, useDirtyForm } from '@/components/form-modal';
import { formResolver, useFormMutation } from '@/lib/forms';
import { fromField } from '@/lib/validity';
import { currentPortalTimeZone } from '@/lib/zoned-time';
import { displayName } from '@/lib/session';
import { useRegisterRfid } from '../api/register-rfid';
import { ReaderCapture } from '@/features/readers/components/reader-capture';

interface CardValues {
  uid: string;
  name: string;
  validFrom: string;
  validUntil: string;
}

const LABELS: Record<keyof CardValues, string> = {
  uid: 'Card UID',
  name: 'Label',
  validFrom: 'Valid from',
  validUntil: 'Valid until',
};

const toInput =
  (userId: string) =>
  (values: CardValues): RfidInput => ({
    uid: values.uid,
    name: values.name.trim(),
    userId,
    validFrom: values.validFrom
      ? (fromField(values.validFrom, currentPortalTimeZone()) ?? values.validFrom)
      : null,
    validUntil: values.validUntil
      ? (fromField(values.validUntil, currentPortalTimeZone()) ?? values.validUntil)
      : null,
  });

function validator(userId: string) {
  const resolve = formResolver<CardValues>(rfidInputSchema, LABELS, toInput(userId));
  return (values: CardValues): FormErrors => {
    const errors = resolve(values);
    if (!values.uid.trim()) errors.uid = 'Enter the UID printed on the card or read by the reader';
    if (values.validFrom && !fromField(values.validFrom, currentPortalTimeZone()))
      errors.validFrom = 'Valid from must be a date and time';
    if (values.validUntil && !fromField(values.validUntil, currentPortalTimeZone())) {
      errors.validUntil = 'Valid until must be a date and time';
    } else if (typeof errors.validUntil === 'string' && /after/i.test(errors.validUntil)) {
      errors.validUntil = 'Valid until must be after valid from';
    }
    return errors;
  };
}

interface RegisterCardFormProps {
  member: PortalMember;
  onRegistered: (card: RfidCard) => void;
  onCancel: () => void;
}

function RegisterCardForm({ member, onRegistered, onCancel }: RegisterCardFormProps) {
  const register = useRegisterRfid();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<CardValues>({
    mode: 'controlled',
    initialValues: { uid: '', name: '', validFrom: '', validUntil: '' },
    validate: validator(member._id),
  });
  useDirtyForm(form.isDirty());

  const { submit } = useFormMutation(form, {
    run: async (values) => {
      setFailure(null);
      onRegistered(await register.mutateAsync(toInput(member._id)(values)));
    },
    labels: LABELS,
    onStatus: { 409: 'uid' },
    otherwise: (message) => setFailure(message),
  });

  return (
    <form onSubmit={submit} noValidate aria-label="Register a card">
      <Stack gap="md">
        {failure && (
          <Alert color="red" variant="light" icon={<IconAlertTriangle aria-hidden="true" />} role="alert">
            {failure}
          </Alert>
        )}
        <TextInput
          label={LABELS.uid}
          description="4, 7 or 10 bytes in hex, as the reader shows it; spaces, : or - between bytes are fine."
          inputWrapperOrder={['label', 'input', 'description', 'error']}
          placeholder="04 A2 3B 1C 5D 80 00"
          required
          autoComplete="off"
          spellCheck={false}
          data-autofocus
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          {...form.getInputProps('uid')}
        />
        {/* "Tap a card now": a paired desk reader fills the UID (features/readers). */}
        <ReaderCapture kind="rfid" userId={member._id} onCaptured={(uid) => form.setFieldValue('uid', uid)} />
        <TextInput
          label={LABELS.name}
          description="Optional: how to tell this card apart (“Blue key fob”)."
          inputWrapperOrder={['label', 'input', 'description', 'error']}
          maxLength={80}
          {...form.getInputProps('name')}
        />
        {/* A card opens all its holder's locks: its times are on the portal's clock (docs/decisions.md). */}
        <ValidityFields
          from={form.getInputProps('validFrom')}
          until={form.getInputProps('validUntil')}
          clock={`the portal's clock (${currentPortalTimeZone()})`}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={register.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={register.isPending}>
            Register card
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

interface RegisterCardModalProps extends RegisterCardFormProps {
  opened: boolean;
}

/** "Register a card" for a person: UID, label and an optional validity window. */
export function RegisterCardModal({ opened, member, onCancel, onRegistered }: RegisterCardModalProps) {
  return (
    <FormModal opened={opened} onClose={onCancel} title={`Register a card for ${displayName(member)}`}>
      <RegisterCardForm member={member} onCancel={onCancel} onRegistered={onRegistered} />
    </FormModal>
  );
}
