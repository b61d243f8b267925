import type { Listing } from '@latchkey/shared';
import {
  Anchor,
  Button,
  CopyButton,
  Group,
  NumberInput,
  SimpleGrid,
  Skeleton,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconCopy, IconExternalLink, IconRefresh } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { QueryError } from '@/components/query-error';
import { SectionCard } from '@/components/section-card';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/errors';
import { useRotateShareToken, useShareSettings, useShareToken } from '../api/share';
import { ClockInput } from '@/components/clock-input';

const absolute = (path: string) => `${window.location.origin}${path}`;

function ShareLink({ listingId }: { listingId: string }) {
  const token = useShareToken(listingId);
  const rotate = useRotateShareToken(listingId);
  const [confirming, setConfirming] = useState(false);
  if (token.isPending) return <Skeleton height={36} radius="sm" aria-label="Loading the share link" />;
  if (token.error) {
    return (
      <QueryError
        title="Could not load the share link"
        error={token.error}
        onRetry={() => void token.refetch()}
      />
    );
  }
  const link = absolute(token.data.landingPath);
  return (
    <Stack gap="xs">
      <TextInput
        label="Arrival page link"
        description="Send it to guests yourself: it shows the address, house rules and each lock's arrival instructions (with the Wi-Fi), no guest and no code."
        inputWrapperOrder={['label', 'input', 'description']}
        value={link}
        readOnly
        onFocus={(event) => event.currentTarget.select()}
      />
      <Group gap="xs">
        <CopyButton value={link} timeout={2000}>
          {({ copied, copy }) => (
            <Button
              variant="default"
              size="xs"
              onClick={copy}
              leftSection={<IconCopy size={14} aria-hidden="true" />}
            >
              {copied ? 'Copied' : 'Copy link'}
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
          New link
        </Button>
      </Group>
      <ConfirmDialog
        opened={confirming}
        onClose={() => setConfirming(false)}
        title="Make a new arrival page link?"
        confirmLabel="Make a new link"
        loading={rotate.isPending}
        onConfirm={() =>
          rotate.mutate(undefined, {
            onSuccess: () => {
              setConfirming(false);
              notifications.show({
                color: 'teal',
                title: 'New link made',
                message: 'The old link no longer opens anything.',
              });
            },
            onError: (error) =>
              notifications.show({
                color: 'red',
                title: 'Could not make a new link',
                message: errorMessage(error),
              }),
          })
        }
      >
        The link you sent before stops working at once. Guests' own links are not affected.
      </ConfirmDialog>
    </Stack>
  );
}

interface ShareValues {
  enabled: boolean;
  initialTime: number;
  startTime: string;
  autoAccept: boolean;
}

/** The share-lock settings (POST device/{listingId}/sharelock) and the links to share. */
export function ShareSection({ listing }: { listing: Listing }) {
  const save = useShareSettings(listing._id);
  const form = useForm<ShareValues>({
    mode: 'controlled',
    initialValues: {
      enabled: listing.published,
      initialTime: listing.initialTime,
      startTime: listing.startTime ?? '',
      autoAccept: listing.autoAccept,
    },
  });
  const requestPath = paths.shareLock.request.href(listing._id);
  const submit = form.onSubmit(async (values) => {
    try {
      await save.mutateAsync({
        enabled: values.enabled,
        initialTime: Number(values.initialTime) || 0,
        startTime: values.startTime || null,
        autoAccept: values.autoAccept,
      });
      form.resetDirty();
      notifications.show({
        color: 'teal',
        title: 'Sharing saved',
        message: 'Current and upcoming stays follow at once.',
      });
    } catch (error) {
      notifications.show({
        color: 'red',
        title: 'Could not save the sharing settings',
        message: errorMessage(error),
      });
    }
  });
  return (
    <SectionCard
      title="Sharing"
      description="Whether people can request stays, and when guests' access starts."
    >
      <Stack gap="lg">
        <form onSubmit={submit} noValidate aria-label="Sharing settings">
          <Stack gap="md">
            <Switch
              label="Requests open (the request page is published)"
              {...form.getInputProps('enabled', { type: 'checkbox' })}
            />
            <Switch
              label="Accept requests for free dates at once"
              {...form.getInputProps('autoAccept', { type: 'checkbox' })}
            />
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
              <NumberInput
                label="Access before check-in (minutes)"
                description={`Check-in is ${listing.checkInTime}.`}
                inputWrapperOrder={['label', 'input', 'description', 'error']}
                min={0}
                max={1440}
                step={15}
                allowDecimal={false}
                {...form.getInputProps('initialTime')}
              />
              <ClockInput
                label="Earliest access on arrival day"
                description="Empty: no limit."
                inputWrapperOrder={['label', 'input', 'description', 'error']}
                {...form.getInputProps('startTime')}
              />
            </SimpleGrid>
            <Group justify="flex-end">
              <Button type="submit" loading={save.isPending} disabled={!form.isDirty()}>
                Save sharing
              </Button>
            </Group>
          </Stack>
        </form>
        <Stack gap={4}>
          <Text size="sm" fw={600}>
            Request page
          </Text>
          {listing.published ? (
            <Anchor
              href={requestPath}
              target="_blank"
              rel="noopener"
              size="sm"
              style={{ overflowWrap: 'anywhere' }}
            >
              {absolute(requestPath)} <IconExternalLink size={14} aria-label="(opens in a new tab)" />
            </Anchor>
          ) : (
            <Text size="sm" c="dimmed">
              Not published: turn requests on to open it.
            </Text>
          )}
        </Stack>
        <ShareLink listingId={listing._id} />
      </Stack>
    </SectionCard>
  );
}
