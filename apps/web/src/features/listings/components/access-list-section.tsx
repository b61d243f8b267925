import { accessListEntryInputSchema, type AccessListEntry, type Listing } from '@latchkey/shared';
import {
  ActionIcon,
  Button,
  Group,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { FormModal, useDirtyForm } from '@/components/form-modal';
import { SectionCard } from '@/components/section-card';
import { errorMessage } from '@/lib/errors';
import { formResolver, useFormMutation } from '@/lib/forms';
import { useDeleteAccessListEntry, useSaveAccessListEntry } from '../api/access-list';
import { describeMinutes } from './stay-text';

interface EntryValues {
  name: string;
  email: string;
  phone: string;
  anchor: 'check_in' | 'check_out';
  startOffset: number;
  endOffset: number;
}

const LABELS: Record<keyof EntryValues, string> = {
  name: 'Name',
  email: 'Email',
  phone: 'Phone',
  anchor: 'Counted from',
  startOffset: 'From (minutes)',
  endOffset: 'Until (minutes)',
};

const ANCHORS = [
  { value: 'check_out', label: "The guest's check-out" },
  { value: 'check_in', label: "The guest's check-in" },
];

const validate = formResolver<EntryValues>(accessListEntryInputSchema, LABELS);

/** "From check-out to check-out + 3 h". */
export function describeWindow(entry: Pick<AccessListEntry, 'anchor' | 'startOffset' | 'endOffset'>): string {
  const anchor = entry.anchor === 'check_out' ? 'check-out' : 'check-in';
  const at = (offset: number) =>
    offset === 0 ? anchor : `${anchor} ${offset > 0 ? '+' : ''}${describeMinutes(offset)}`;
  return `From ${at(entry.startOffset)} to ${at(entry.endOffset)}`;
}

function EntryForm({
  listingId,
  entry,
  onDone,
}: {
  listingId: string;
  entry: AccessListEntry | null;
  onDone: () => void;
}) {
  const save = useSaveAccessListEntry();
  const form = useForm<EntryValues>({
    mode: 'controlled',
    initialValues: {
      name: entry?.name ?? '',
      email: entry?.email ?? '',
      phone: entry?.phone ?? '',
      anchor: entry?.anchor ?? 'check_out',
      startOffset: entry?.startOffset ?? 0,
      endOffset: entry?.endOffset ?? 180,
    },
    validate,
  });
  // Escape or a click outside asks before throwing away what was typed (FormModal).
  useDirtyForm(form.isDirty());
  const { submit } = useFormMutation(form, {
    run: async (values) => {
      await save.mutateAsync({ listingId, entryId: entry?._id ?? null, ...values });
      notifications.show({
        color: 'teal',
        title: entry ? 'Saved' : 'Added',
        message: `${values.name}: current and upcoming stays follow at once.`,
      });
      onDone();
    },
    labels: LABELS,
    otherwise: 'Could not save',
  });
  return (
    <form onSubmit={submit} noValidate aria-label={entry ? `Edit ${entry.name}` : 'Add someone'}>
      <Stack gap="md">
        <TextInput
          label={LABELS.name}
          placeholder="Cleaner"
          required
          maxLength={80}
          data-autofocus
          {...form.getInputProps('name')}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <TextInput label={LABELS.email} type="email" maxLength={254} {...form.getInputProps('email')} />
          <TextInput label={LABELS.phone} type="tel" maxLength={32} {...form.getInputProps('phone')} />
        </SimpleGrid>
        <Select
          label={LABELS.anchor}
          data={ANCHORS}
          allowDeselect={false}
          {...form.getInputProps('anchor')}
          comboboxProps={{ withinPortal: true }}
        />
        <SimpleGrid cols={2} spacing="md">
          <NumberInput
            label={LABELS.startOffset}
            description="after it (negative: before)"
            inputWrapperOrder={['label', 'input', 'description', 'error']}
            min={-2880}
            max={2880}
            step={30}
            allowDecimal={false}
            {...form.getInputProps('startOffset')}
          />
          <NumberInput
            label={LABELS.endOffset}
            description="after it"
            inputWrapperOrder={['label', 'input', 'description', 'error']}
            min={-2880}
            max={2880}
            step={30}
            allowDecimal={false}
            {...form.getInputProps('endOffset')}
          />
        </SimpleGrid>
        <Text size="sm" c="dimmed">
          {describeWindow(form.values)}, with a code of their own for each stay.
        </Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onDone} disabled={save.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            {entry ? 'Save' : 'Add'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Who else gets the listing's locks around every stay (listingAccessList). */
export function AccessListSection({ listing }: { listing: Listing }) {
  const [editing, setEditing] = useState<AccessListEntry | 'new' | null>(null);
  const [removing, setRemoving] = useState<AccessListEntry | null>(null);
  const remove = useDeleteAccessListEntry();
  return (
    <SectionCard
      title="Access around stays"
      description="The cleaner after check-out, say: each stay gives them a code of their own for that window, shown on the stay."
      aside={
        <Button
          variant="default"
          size="xs"
          leftSection={<IconPlus size={14} aria-hidden="true" />}
          onClick={() => setEditing('new')}
        >
          Add someone
        </Button>
      }
    >
      {listing.accessList.length === 0 ? (
        <Text size="sm" c="dimmed">
          Nobody yet: only the guest gets the locks.
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={300}>
          <Table verticalSpacing="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Who</Table.Th>
                <Table.Th scope="col">When</Table.Th>
                <Table.Th scope="col">
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {listing.accessList.map((entry) => (
                <Table.Tr key={entry._id}>
                  <Table.Td>
                    <Text size="sm" fw={600}>
                      {entry.name}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {[entry.email, entry.phone].filter(Boolean).join(' · ')}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{describeWindow(entry)}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4} justify="flex-end" wrap="nowrap">
                      <ActionIcon
                        variant="subtle"
                        aria-label={`Edit ${entry.name}`}
                        onClick={() => setEditing(entry)}
                      >
                        <IconPencil size={16} aria-hidden="true" />
                      </ActionIcon>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={`Remove ${entry.name}`}
                        onClick={() => setRemoving(entry)}
                      >
                        <IconTrash size={16} aria-hidden="true" />
                      </ActionIcon>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <FormModal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? 'Add someone' : editing ? `Edit ${editing.name}` : ''}
      >
        {editing && (
          <EntryForm
            listingId={listing._id}
            entry={editing === 'new' ? null : editing}
            onDone={() => setEditing(null)}
          />
        )}
      </FormModal>
      <ConfirmDialog
        opened={removing !== null}
        onClose={() => setRemoving(null)}
        title={`Remove ${removing?.name ?? ''}?`}
        confirmLabel="Remove"
        loading={remove.isPending}
        onConfirm={() =>
          removing &&
          remove.mutate(
            { listingId: listing._id, entryId: removing._id },
            {
              onSuccess: () => setRemoving(null),
              onError: (error) =>
                notifications.show({ color: 'red', title: 'Could not remove', message: errorMessage(error) }),
            },
          )
        }
      >
        Their codes for current and upcoming stays stop working at once.
      </ConfirmDialog>
    </SectionCard>
  );
}
