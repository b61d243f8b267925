import type { Reader, ReaderKind, ReaderPaired } from '@latchkey/shared';
import {
  ActionIcon,
  Button,
  Code,
  Group,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconDeviceDesktop, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { EmptyList } from '@/components/empty-list';
import { FormModal, useDirtyForm } from '@/components/form-modal';
import { LockConnectionStatus } from '@/components/lock-connection-status';
import { OneTimeSecretModal } from '@/components/one-time-secret-modal';
import { PageHeader } from '@/components/page-header';
import { QueryError } from '@/components/query-error';
import { TableSkeleton } from '@/components/table-skeleton';
import { errorMessage } from '@/lib/errors';
import { useDeleteReader } from '../api/delete-reader';
import { useReaders } from '../api/get-readers';
import { usePairReader } from '../api/pair-reader';
import { useUpdateReader } from '../api/update-reader';

const KIND_OPTIONS: { value: ReaderKind; label: string }[] = [
  { value: 'both', label: 'Cards and fingerprints' },
  { value: 'rfid', label: 'RFID cards' },
  { value: 'fingerprint', label: 'Fingerprints' },
];
const kindLabel = (kind: ReaderKind) => KIND_OPTIONS.find((option) => option.value === kind)!.label;

interface ReaderValues {
  name: string;
  kind: ReaderKind;
}

function validateName(name: string) {
  if (!name.trim()) return 'Enter a name for the reader';
  return name.trim().length > 80 ? 'Keep the name to 80 characters' : null;
}

/** Pair (no reader) or rename (a reader) in one form. */
function ReaderForm({
  reader,
  onDone,
  onCancel,
}: {
  reader: Reader | null;
  onDone: (paired: ReaderPaired | null) => void;
  onCancel: () => void;
}) {
  const pair = usePairReader();
  const update = useUpdateReader();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<ReaderValues>({
    mode: 'controlled',
    initialValues: { name: reader?.name ?? '', kind: reader?.kind ?? 'both' },
    validate: { name: validateName },
  });
  useDirtyForm(form.isDirty());
  const pending = pair.isPending || update.isPending;
  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    const input = { name: values.name.trim(), kind: values.kind };
    try {
      if (reader) {
        await update.mutateAsync({ readerId: reader._id, ...input });
        onDone(null);
      } else onDone(await pair.mutateAsync(input));
    } catch (error) {
      setFailure(errorMessage(error));
    }
  });
  return (
    <form onSubmit={submit} noValidate aria-label={reader ? 'Rename reader' : 'Pair a reader'}>
      <Stack gap="md">
        {failure && (
          <Text c="red.8" size="sm" role="alert">
            {failure}
          </Text>
        )}
        <TextInput
          label="Name"
          description="Where it stands, e.g. “Front desk”."
          inputWrapperOrder={['label', 'input', 'description', 'error']}
          required
          maxLength={80}
          data-autofocus
          {...form.getInputProps('name')}
        />
        <Select
          label="It reads"
          data={KIND_OPTIONS}
          allowDeselect={false}
          comboboxProps={{ withinPortal: true }}
          {...form.getInputProps('kind')}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={pending}>
            Cancel
          </Button>
          <Button type="submit" loading={pending}>
            {reader ? 'Save' : 'Pair reader'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** /app/readers: the portal's desk enrollment readers: pair, rename, unpair, and whether each is online. */
export function ReadersPage() {
  const readers = useReaders();
  const remove = useDeleteReader();
  const [editing, setEditing] = useState<Reader | 'new' | null>(null);
  const [paired, setPaired] = useState<ReaderPaired | null>(null);
  const [deleting, setDeleting] = useState<Reader | null>(null);

  const pairButton = (
    <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
      Pair a reader
    </Button>
  );

  let body;
  if (readers.isPending) body = <TableSkeleton rows={3} label="Loading the readers" />;
  else if (readers.error) {
    body = (
      <QueryError
        title="Could not load the readers"
        error={readers.error}
        onRetry={() => void readers.refetch()}
      />
    );
  } else if (readers.data.items.length === 0) {
    body = (
      <EmptyList
        icon={<IconDeviceDesktop size={28} />}
        title="No desk reader yet"
        description="Pair a USB or network reader at the front desk, then fill a person's card UID or fingerprint from it with “Tap a card now” or “Scan a finger now”."
        action={pairButton}
        invite
      />
    );
  } else {
    body = (
      <Table.ScrollContainer minWidth={560}>
        <Table verticalSpacing="sm" highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Reads</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Reader ID</Table.Th>
              <Table.Th>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {readers.data.items.map((reader) => (
              <Table.Tr key={reader._id}>
                <Table.Td>
                  <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
                    {reader.name}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{kindLabel(reader.kind)}</Text>
                </Table.Td>
                <Table.Td>
                  <LockConnectionStatus lock={reader} />
                </Table.Td>
                <Table.Td>
                  <Code fz="xs">{reader._id}</Code>
                </Table.Td>
                <Table.Td>
                  <Group gap={4} justify="flex-end" wrap="nowrap">
                    <Tooltip label="Rename">
                      <ActionIcon
                        variant="subtle"
                        aria-label={`Rename ${reader.name}`}
                        onClick={() => setEditing(reader)}
                      >
                        <IconPencil size={16} />
                      </ActionIcon>
                    </Tooltip>
                    <Tooltip label="Unpair">
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={`Unpair ${reader.name}`}
                        onClick={() => setDeleting(reader)}
                      >
                        <IconTrash size={16} />
                      </ActionIcon>
                    </Tooltip>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    );
  }

  const command = paired
    ? `npm run locksim -- --url ${paired.brokerUrl} --reader ${paired.reader._id}:${paired.secret} --kind ${paired.reader.kind}`
    : '';

  return (
    <Stack gap="lg">
      <PageHeader
        title="Desk readers"
        description="Enrollment readers at the front desk: they read a card's UID or enrol a finger for a person's page."
        aside={readers.data && readers.data.items.length > 0 ? pairButton : undefined}
      />
      {body}
      <FormModal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? 'Pair a reader' : `Rename ${editing?.name ?? ''}`}
      >
        {editing !== null && (
          <ReaderForm
            reader={editing === 'new' ? null : editing}
            onCancel={() => setEditing(null)}
            onDone={(result) => {
              setEditing(null);
              if (result) setPaired(result);
              else notifications.show({ color: 'teal', message: 'Reader saved' });
            }}
          />
        )}
      </FormModal>
      <OneTimeSecretModal
        secret={paired?.secret ?? null}
        onClose={() => setPaired(null)}
        title={`Connect ${paired?.reader.name ?? 'the reader'}`}
        label="Reader secret"
        description={
          <Stack gap="xs" component="span">
            <Text size="sm" component="span">
              The reader connects to {paired?.brokerUrl} with its reader ID{' '}
              <strong>{paired?.reader._id}</strong> and this secret, as a lock does. To try it with the
              simulator, run:
            </Text>
            <Code block style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
              {command}
            </Code>
          </Stack>
        }
      />
      <ConfirmDialog
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title={`Unpair ${deleting?.name ?? 'the reader'}?`}
        confirmLabel="Unpair"
        loading={remove.isPending}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting._id, {
            onSuccess: () => {
              notifications.show({ color: 'teal', message: `${deleting.name} unpaired` });
              setDeleting(null);
            },
            onError: (error) => notifications.show({ color: 'red', message: errorMessage(error) }),
          })
        }
      >
        Its secret stops working at once and it disconnects. Cards and fingerprints it read stay as they are.
      </ConfirmDialog>
    </Stack>
  );
}
