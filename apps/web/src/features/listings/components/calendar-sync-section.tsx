import {
  ICAL_FEED_MODES,
  icalFeedInputSchema,
  type IcalFeed,
  type IcalFeedMode,
  type IcalSyncOutcome,
} from '@latchkey/shared';
import {
  Alert,
  Badge,
  Button,
  CopyButton,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle, IconCopy, IconRefresh, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { QueryError } from '@/components/query-error';
import { SectionCard } from '@/components/section-card';
import { errorMessage } from '@/lib/errors';
import { formatRelative } from '@/lib/format';
import { formResolver, useFormMutation } from '@/lib/forms';
import { useAddFeed, useListingIcal, useRemoveFeed, useRotateIcal, useSyncFeed } from '../api/calendar';

const MODE_LABELS: Record<IcalFeedMode, string> = {
  auto: 'Reservations, or blocked nights',
  reservations: 'All reservations',
  blocks: 'All blocked nights',
};

const MODE_WORDS: Record<IcalFeedMode, string> = {
  auto: 'reservations get codes; "Not available" nights are blocked',
  reservations: 'every event is a reservation with a code',
  blocks: 'every event only blocks nights',
};

/** What the last read did, in words. */
function lastReadWords(result: IcalSyncOutcome): string {
  if (result.notModified) return 'Last read: nothing changed since the read before.';
  const flagged = result.flagged > 0 ? `; ${result.flagged} double booking(s) to sort out` : '';
  return `Last read: ${result.added} new, ${result.changed} changed, ${result.cancelled} cancelled, ${result.blocks} blocked stretch(es)${flagged}.`;
}

/** "just now" rather than "now" after "read". */
const since = (iso: string) => {
  const words = formatRelative(iso);
  return words === 'now' ? 'just now' : words;
};

function ExportFeed({ listingId }: { listingId: string }) {
  const ical = useListingIcal(listingId);
  const rotate = useRotateIcal(listingId);
  const [confirming, setConfirming] = useState(false);
  if (ical.isPending) return <Skeleton height={60} radius="sm" aria-label="Loading the export feed" />;
  if (ical.error) {
    return (
      <QueryError
        title="Could not load the calendar feeds"
        error={ical.error}
        onRetry={() => void ical.refetch()}
      />
    );
  }
  return (
    <Stack gap="xs">
      <TextInput
        label="Export feed (iCal)"
        description="Paste it into Airbnb, Vrbo or Booking.com to block the nights booked or blocked here. It carries dates only: no names, no codes. Keep it private."
        inputWrapperOrder={['label', 'input', 'description']}
        value={ical.data.exportUrl}
        readOnly
        onFocus={(event) => event.currentTarget.select()}
      />
      <Group gap="xs">
        <CopyButton value={ical.data.exportUrl} timeout={2000}>
          {({ copied, copy }) => (
            <Button
              variant="default"
              size="xs"
              onClick={copy}
              leftSection={<IconCopy size={14} aria-hidden="true" />}
            >
              {copied ? 'Copied' : 'Copy address'}
            </Button>
          )}
        </CopyButton>
        <Button
          variant="subtle"
          size="xs"
          color="red"
          leftSection={<IconRefresh size={14} aria-hidden="true" />}
          onClick={() => setConfirming(true)}
        >
          New address
        </Button>
        {ical.data.exportRotatedAt && (
          <Text size="xs" c="dimmed">
            Renewed {formatRelative(ical.data.exportRotatedAt)}
          </Text>
        )}
      </Group>
      <ConfirmDialog
        opened={confirming}
        onClose={() => setConfirming(false)}
        title="Make a new export address?"
        confirmLabel="Make a new address"
        loading={rotate.isPending}
        onConfirm={() =>
          rotate.mutate(undefined, {
            onSuccess: () => {
              setConfirming(false);
              notifications.show({
                color: 'teal',
                title: 'New export address made',
                message: 'Paste it into each platform: the old one stopped.',
              });
            },
            onError: (error) =>
              notifications.show({
                color: 'red',
                title: 'Could not make a new address',
                message: errorMessage(error),
              }),
          })
        }
      >
        Platforms reading the old address stop getting your dates until you give them the new one.
      </ConfirmDialog>
    </Stack>
  );
}

function FeedCard({ listingId, feed }: { listingId: string; feed: IcalFeed }) {
  const sync = useSyncFeed(listingId);
  const remove = useRemoveFeed(listingId);
  const [removing, setRemoving] = useState(false);
  const emptyError = feed.lastError?.includes('came back empty') ?? false;
  const run = (acceptEmpty = false) =>
    sync.mutate(
      { feedId: feed._id, acceptEmpty },
      {
        onSuccess: () =>
          notifications.show({
            color: 'teal',
            title: `Reading ${feed.name}`,
            message:
              'The calendar is being read in the background; this card shows what changed when it is done.',
          }),
        onError: (error) =>
          notifications.show({
            color: 'red',
            title: `Could not read ${feed.name}`,
            message: errorMessage(error),
          }),
      },
    );
  return (
    <Paper withBorder radius="md" p="sm" component="li">
      <Stack gap={6}>
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Group gap="xs">
            <Text fw={600}>{feed.name}</Text>
            {feed.lastError ? (
              <Badge color="red" variant="light">
                Failing
              </Badge>
            ) : feed.lastSuccessAt ? (
              <Badge color="teal" variant="light">
                In step
              </Badge>
            ) : (
              <Badge color="gray" variant="light">
                Not read yet
              </Badge>
            )}
          </Group>
          <Group gap={6}>
            <Button
              size="xs"
              variant="default"
              loading={sync.isPending || feed.syncing}
              onClick={() => run()}
              leftSection={<IconRefresh size={14} aria-hidden="true" />}
            >
              Sync now
            </Button>
            <Button
              size="xs"
              variant="subtle"
              color="red"
              aria-label={`Stop importing ${feed.name}`}
              leftSection={<IconTrash size={14} aria-hidden="true" />}
              onClick={() => setRemoving(true)}
            >
              Remove
            </Button>
          </Group>
        </Group>
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {feed.url}
        </Text>
        <Text size="sm">
          {feed.lastSuccessAt ? `Last read ${since(feed.lastSuccessAt)}` : 'Never read successfully'} ·{' '}
          {feed.events} event{feed.events === 1 ? '' : 's'} · {feed.stays} current stay
          {feed.stays === 1 ? '' : 's'} · {MODE_WORDS[feed.mode]}
        </Text>
        {feed.syncing ? (
          <Text size="sm" c="dimmed" role="status">
            Being read now…
          </Text>
        ) : (
          feed.lastResult?.ok && (
            <Text size="sm" c="dimmed">
              {lastReadWords(feed.lastResult)}
            </Text>
          )
        )}
        {feed.lastError && (
          <Alert
            color="red"
            variant="light"
            icon={<IconAlertTriangle aria-hidden="true" />}
            title="The last read failed"
          >
            <Stack gap="xs">
              <Text size="sm">
                {feed.lastError}
                {feed.lastErrorAt ? ` (${formatRelative(feed.lastErrorAt)})` : ''}
              </Text>
              {emptyError && (
                <Group>
                  <Button
                    size="xs"
                    color="red"
                    variant="light"
                    loading={sync.isPending}
                    onClick={() => run(true)}
                  >
                    Apply the empty calendar (cancel its stays)
                  </Button>
                </Group>
              )}
            </Stack>
          </Alert>
        )}
        {feed.lastWarning && !feed.lastError && (
          <Alert color="yellow" variant="light" title="To look at">
            {feed.lastWarning}
          </Alert>
        )}
      </Stack>
      <ConfirmDialog
        opened={removing}
        onClose={() => setRemoving(false)}
        title={`Stop importing ${feed.name}?`}
        confirmLabel="Stop importing"
        loading={remove.isPending}
        onConfirm={() =>
          remove.mutate(feed._id, {
            onSuccess: () => {
              setRemoving(false);
              notifications.show({ color: 'teal', title: 'Calendar removed', message: feed.name });
            },
            onError: (error) =>
              notifications.show({
                color: 'red',
                title: 'Could not remove the calendar',
                message: errorMessage(error),
              }),
          })
        }
      >
        Its blocked nights open again. The stays it brought stay, with their codes: change or cancel them
        yourself.
      </ConfirmDialog>
    </Paper>
  );
}

interface FeedValues {
  name: string;
  url: string;
  mode: IcalFeedMode;
}

const FEED_LABELS: Record<keyof FeedValues, string> = {
  name: 'Name',
  url: 'iCal address',
  mode: 'Events are',
};
const validateFeed = formResolver<FeedValues>(icalFeedInputSchema, FEED_LABELS);

function AddFeed({ listingId }: { listingId: string }) {
  const add = useAddFeed(listingId);
  const sync = useSyncFeed(listingId);
  const form = useForm<FeedValues>({
    mode: 'controlled',
    initialValues: { name: '', url: '', mode: 'auto' },
    validate: validateFeed,
  });
  const { submit } = useFormMutation(form, {
    run: async (values) => {
      const feed = await add.mutateAsync(values);
      form.reset();
      // The first read at once, so the owner sees whether the address works.
      sync.mutate({ feedId: feed._id });
      notifications.show({
        color: 'teal',
        title: 'Calendar added',
        message: `${feed.name} is being read now.`,
      });
    },
    labels: FEED_LABELS,
    otherwise: 'Could not add the calendar',
  });
  return (
    <form onSubmit={submit} noValidate aria-label="Import a calendar">
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
        <TextInput
          label={FEED_LABELS.name}
          placeholder="Airbnb"
          maxLength={60}
          {...form.getInputProps('name')}
        />
        <TextInput
          label={FEED_LABELS.url}
          placeholder="https://www.airbnb.com/calendar/ical/….ics"
          {...form.getInputProps('url')}
        />
        <Select
          label={FEED_LABELS.mode}
          description={`${MODE_WORDS[form.values.mode].charAt(0).toUpperCase()}${MODE_WORDS[form.values.mode].slice(1)}.`}
          inputWrapperOrder={['label', 'input', 'description', 'error']}
          data={ICAL_FEED_MODES.map((value) => ({ value, label: MODE_LABELS[value] }))}
          allowDeselect={false}
          {...form.getInputProps('mode')}
        />
      </SimpleGrid>
      <Group justify="flex-end" mt="sm">
        <Button type="submit" variant="default" loading={add.isPending}>
          Import calendar
        </Button>
      </Group>
    </form>
  );
}

/** iCal both ways: the export feed's address, and other platforms' calendars imported here. */
export function CalendarSyncSection({ listingId }: { listingId: string }) {
  const ical = useListingIcal(listingId);
  return (
    <SectionCard
      title="Calendar sync"
      description="Keep Airbnb, Vrbo or Booking.com in step: they read the export feed; their calendars are read here every half hour. Imported reservations get codes like any stay; give the guest the code or their stay link."
    >
      <Stack gap="lg">
        <ExportFeed listingId={listingId} />
        <Stack gap="xs">
          <Text size="sm" fw={600}>
            Imported calendars
          </Text>
          {ical.data && ical.data.feeds.length === 0 && (
            <Text size="sm" c="dimmed">
              None yet. Add a platform's iCal export address below.
            </Text>
          )}
          {ical.data && ical.data.feeds.length > 0 && (
            <Stack gap="xs" component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
              {ical.data.feeds.map((feed) => (
                <FeedCard key={feed._id} listingId={listingId} feed={feed} />
              ))}
            </Stack>
          )}
        </Stack>
        <AddFeed listingId={listingId} />
      </Stack>
    </SectionCard>
  );
}
