import { rfidInputSchema, type RfidCard, type RfidInput } from '@latchkey/shared';
import { Alert, Button, Group, Select, Stack, TextInput } from '@mantine/core';
import { useForm, type FormErrors } from '@mantine/form';
import { useDebouncedValue } from '@mantine/hooks';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useMemo, useState, type ReactNode } from 'react';
import { FormModal, useDirtyForm } from '@/components/form-modal';
import { ValidityFields } from '@/components/validity-fields';
import { fieldErrorsFrom } from '@/lib/errors';
import { formatUid } from '@/lib/format';
import { formResolver, useFormMutation } from '@/lib/forms';
import { fromField, toField } from '@/lib/validity';
import { currentPortalTimeZone } from '@/lib/zoned-time';
import { useScopedUsers } from '@/features/people-picker/api/get-scoped-users';
import { useUpdateCard } from '../api/update-card';

interface CardValues {
  name: string;
  userId: string;
  validFrom: string;
  validUntil: string;
}

const LABELS: Record<keyof CardValues | 'uid', string> = {
  uid: 'Card UID',
  name: 'Label',
  userId: 'Holder',
  validFrom: 'Valid from',
  validUntil: 'Valid until',
};

interface PersonOption {
  value: string;
  label: string;
}

const personLabel = (person: { name: string; email: string }) =>
  person.name && person.name !== person.email ? `${person.name} (${person.email})` : person.email;

const toInput =
  (uid: string) =>
  (values: CardValues): RfidInput => ({
    uid,
    name: values.name.trim(),
    userId: values.userId || null,
    validFrom: values.validFrom
      ? (fromField(values.validFrom, currentPortalTimeZone()) ?? values.validFrom)
      : null,
    validUntil: values.validUntil
      ? (fromField(values.validUntil, currentPortalTimeZone()) ?? values.validUntil)
      : null,
  });

function validator(uid: string) {
  const resolve = formResolver<CardValues>(rfidInputSchema, LABELS, toInput(uid));
  return (values: CardValues): FormErrors => {
    const errors = resolve(values);
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

/** A person picker asking the server as one types (GET portal/scopedUsers). */
function HolderSelect({
  value,
  initial,
  onChange,
  error,
}: {
  value: string;
  initial: PersonOption | null;
  onChange: (value: string) => void;
  error?: ReactNode;
}) {
  const [chosen, setChosen] = useState<PersonOption | null>(initial);
  const [search, setSearch] = useState(initial?.label ?? '');
  const [debounced] = useDebouncedValue(search, 300);
  // While the box shows the chosen person's name, list everyone rather than only them.
  const people = useScopedUsers(chosen && debounced === chosen.label ? '' : debounced.trim());
  const options = useMemo(() => {
    const found = (people.data ?? []).map((person) => ({ value: person._id, label: personLabel(person) }));
    if (chosen && !found.some((option) => option.value === chosen.value)) found.unshift(chosen);
    return found;
  }, [chosen, people.data]);

  return (
    <Select
      label={LABELS.userId}
      description="The person who carries it; a card nobody holds opens nothing."
      inputWrapperOrder={['label', 'input', 'description', 'error']}
      placeholder="Search people by name or email"
      data={options}
      value={value || null}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      // The server has already filtered by the search.
      filter={({ options: all }) => all}
      clearable
      nothingFoundMessage={people.isFetching ? 'Searching…' : 'Nobody matches'}
      comboboxProps={{ withinPortal: true }}
      error={error}
      onChange={(next, option) => {
        setChosen(next && option ? { value: next, label: option.label } : null);
        onChange(next ?? '');
      }}
    />
  );
}

interface EditCardFormProps {
  card: RfidCard;
  onSaved: (card: RfidCard) => void;
  onCancel: () => void;
}

function EditCardForm({ card, onSaved, onCancel }: EditCardFormProps) {
  const update = useUpdateCard();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<CardValues>({
    mode: 'controlled',
    initialValues: {
      name: card.name,
      userId: card.holder?._id ?? '',
      validFrom: toField(card.validFrom, currentPortalTimeZone()),
      validUntil: toField(card.validUntil, currentPortalTimeZone()),
    },
    validate: validator(card.uid),
  });
  // Escape or a click outside asks before throwing away what was typed (FormModal).
  useDirtyForm(form.isDirty());

  const { submit } = useFormMutation(form, {
    run: async (values) => {
      setFailure(null);
      onSaved(await update.mutateAsync({ rfidId: card._id, ...toInput(card.uid)(values) }));
    },
    labels: LABELS,
    // The UID cannot be changed here: what the answer says about it is told above the form.
    adjustErrors: ({ uid: _uid, ...onFields }) => onFields,
    onStatus: {
      400: (message, error) => setFailure(fieldErrorsFrom(error, { uid: LABELS.uid }).uid ?? message),
    },
    otherwise: (message) => setFailure(message),
  });

  return (
    <form onSubmit={submit} noValidate aria-label="Edit card">
      <Stack gap="md">
        {failure && (
          <Alert color="red" variant="light" icon={<IconAlertTriangle aria-hidden="true" />} role="alert">
            {failure}
          </Alert>
        )}
        <TextInput
          label={LABELS.uid}
          description="A card's UID cannot change: register the new card instead."
          inputWrapperOrder={['label', 'input', 'description', 'error']}
          value={formatUid(card.uid)}
          readOnly
          variant="filled"
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        />
        <TextInput
          label={LABELS.name}
          description="Optional: how to tell this card apart (“Blue key fob”)."
          inputWrapperOrder={['label', 'input', 'description', 'error']}
          maxLength={80}
          data-autofocus
          {...form.getInputProps('name')}
        />
        <HolderSelect
          value={form.values.userId}
          initial={card.holder ? { value: card.holder._id, label: personLabel(card.holder) } : null}
          onChange={(value) => form.setFieldValue('userId', value)}
          error={form.errors.userId}
        />
        {/* A card opens all its holder's locks: its times are on the portal's clock (docs/decisions.md). */}
        <ValidityFields
          from={form.getInputProps('validFrom')}
          until={form.getInputProps('validUntil')}
          clock={`the portal's clock (${currentPortalTimeZone()})`}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={update.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={update.isPending}>
            Save card
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

interface EditCardModalProps {
  /** The card to edit; the modal is open while it is set. */
  card: RfidCard | null;
  onSaved: (card: RfidCard) => void;
  onClose: () => void;
}

/** Edits a card's label, holder (a person picker) and validity; the UID is read-only. */
export function EditCardModal({ card, onSaved, onClose }: EditCardModalProps) {
  return (
    <FormModal
      opened={card !== null}
      onClose={onClose}
      title={card?.name ? `Edit the card “${card.name}”` : 'Edit the card'}
    >
      {card && <EditCardForm key={card._id} card={card} onSaved={onSaved} onCancel={onClose} />}
    </FormModal>
  );
}
