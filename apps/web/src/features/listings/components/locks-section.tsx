import { LOCK_MODELS, type DeviceLanding, type Listing } from '@latchkey/shared';
import {
  Anchor,
  Button,
  Group,
  Modal,
  Skeleton,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { Link } from 'react-router';
import { QueryError } from '@/components/query-error';
import { SectionCard } from '@/components/section-card';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/errors';
import { listingKeys } from '../api/query-keys';
import { useDeviceLanding, useSaveDeviceLanding } from '../api/share';
import { ImageManager } from './listing-images';

type Lock = Listing['locks'][number];

function LandingFields({
  lock,
  landing,
  onDone,
}: {
  lock: Lock;
  landing: DeviceLanding;
  onDone: () => void;
}) {
  const save = useSaveDeviceLanding(lock._id);
  const form = useForm({
    mode: 'controlled',
    initialValues: {
      text: landing.text,
      wifiName: landing.wifiName,
      wifiPassword: landing.wifiPassword,
      parking: landing.parking,
    },
  });
  const submit = form.onSubmit(async (values) => {
    try {
      await save.mutateAsync(values);
      notifications.show({ color: 'teal', title: 'Arrival instructions saved', message: lock.name });
      onDone();
    } catch (error) {
      notifications.show({
        color: 'red',
        title: 'Could not save the arrival instructions',
        message: errorMessage(error),
      });
    }
  });
  return (
    <form onSubmit={submit} noValidate aria-label={`Arrival instructions for ${lock.name}`}>
      <Stack gap="md">
        <Textarea
          label="How to get in"
          placeholder="Ring 3B, the lock is on the left of the door; enter your code and press the lock key."
          autosize
          minRows={3}
          maxLength={4000}
          data-autofocus
          {...form.getInputProps('text')}
        />
        <Group grow align="flex-start">
          <TextInput label="Wi-Fi name" maxLength={64} {...form.getInputProps('wifiName')} />
          <TextInput label="Wi-Fi password" maxLength={64} {...form.getInputProps('wifiPassword')} />
        </Group>
        <Textarea label="Parking" autosize minRows={1} maxLength={1000} {...form.getInputProps('parking')} />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onDone} disabled={save.isPending}>
            Close
          </Button>
          <Button type="submit" loading={save.isPending}>
            Save instructions
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function LandingForm({ lock, onDone }: { lock: Lock; onDone: () => void }) {
  const landing = useDeviceLanding(lock._id);
  if (landing.isPending)
    return <Skeleton height={240} radius="md" aria-label="Loading the arrival instructions" />;
  if (landing.error) {
    return (
      <QueryError
        title="Could not load the arrival instructions"
        error={landing.error}
        onRetry={() => void landing.refetch()}
      />
    );
  }
  return (
    <Stack gap="lg">
      <LandingFields lock={lock} landing={landing.data} onDone={onDone} />
      <Stack gap="xs">
        <Text fw={600} size="sm">
          Pictures of the way in
        </Text>
        <ImageManager
          images={landing.data.images}
          basePath={`device/${lock._id}/sharelock/landing`}
          refresh={listingKeys.landing(lock._id)}
          label="arrival picture"
        />
      </Stack>
    </Stack>
  );
}

/** The listing's locks, each with the arrival instructions its guests see. */
export function LocksSection({ listing }: { listing: Listing }) {
  const [editing, setEditing] = useState<Lock | null>(null);
  return (
    <SectionCard
      title="Locks and arrival instructions"
      description={`Guests get every lock below for their stay${listing.timeZone ? ` (times in ${listing.timeZone})` : ''}.`}
    >
      <Table.ScrollContainer minWidth={300}>
        <Table verticalSpacing="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Lock</Table.Th>
              <Table.Th scope="col" visibleFrom="sm">
                Model
              </Table.Th>
              <Table.Th scope="col">
                <VisuallyHidden>Arrival instructions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {listing.locks.map((lock) => (
              <Table.Tr key={lock._id}>
                <Table.Td>
                  <Anchor component={Link} to={paths.app.device.href(lock._id)} size="sm" fw={600}>
                    {lock.name}
                  </Anchor>
                </Table.Td>
                <Table.Td visibleFrom="sm">
                  <Text size="sm">{LOCK_MODELS[lock.model].label}</Text>
                  <Text size="xs" c="dimmed">
                    {lock.capabilities
                      ? `Holds ${lock.capabilities.codeSlots} codes, as the lock reports`
                      : `Holds ${LOCK_MODELS[lock.model].capacity} credentials`}
                  </Text>
                </Table.Td>
                <Table.Td ta="right">
                  <Button
                    variant="default"
                    size="xs"
                    onClick={() => setEditing(lock)}
                    aria-label={`Arrival instructions for ${lock.name}`}
                  >
                    Arrival instructions
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing ? `Arrival instructions: ${editing.name}` : ''}
        size="lg"
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        {editing && <LandingForm key={editing._id} lock={editing} onDone={() => setEditing(null)} />}
      </Modal>
    </SectionCard>
  );
}
