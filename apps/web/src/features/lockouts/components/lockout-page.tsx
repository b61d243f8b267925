import type { LockoutRecord } from '@latchkey/shared';
import { Anchor, Button, Grid, Group, Stack, Text, ThemeIcon } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import {
  IconCalendarEvent,
  IconChevronRight,
  IconLock,
  IconPencil,
  IconShieldCheck,
  IconShieldX,
  IconTrash,
} from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { SectionCard } from '@/components/section-card';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/errors';
import { formatDateTime } from '@/lib/format';
import { usePortalTimeZone } from '@/lib/zoned-time';
import { useDeleteLockout } from '../api/delete-lockout';
import { useLockout } from '../api/get-lockout';
import { lockoutKeys } from '../api/query-keys';
import { ExemptBadge, LockoutStateBadge } from './lockout-badges';
import { describePeriod, lockoutClock, lockoutState } from './lockout-text';
import { RecordPage } from '@/components/record-page';

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="sm" component="div">
        {children}
      </Text>
    </Stack>
  );
}

function PeriodCard({ lockout }: { lockout: LockoutRecord }) {
  const state = lockoutState(lockout);
  const portalZone = usePortalTimeZone();
  const clock = lockoutClock(lockout.devices, portalZone);
  return (
    <SectionCard title="Period" description={`Times on ${clock.says}.`} h="100%">
      <Stack gap="md">
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <ThemeIcon variant="light" aria-hidden="true">
            <IconCalendarEvent size={18} />
          </ThemeIcon>
          <Text size="sm" fw={600}>
            {describePeriod(lockout, portalZone)}
          </Text>
        </Group>
        {clock.note && (
          <Text size="xs" c="dimmed">
            {clock.note}
          </Text>
        )}
        <Fact label="Starts">{formatDateTime(lockout.from, clock.timeZone, { zone: true })}</Fact>
        <Fact label="Ends">
          {lockout.until
            ? formatDateTime(lockout.until, clock.timeZone, { zone: true })
            : 'No end: until it is deleted or edited'}
        </Fact>
        <Fact label="Admins">
          <Group gap={6} wrap="nowrap" align="flex-start">
            {lockout.exemptAdmins ? (
              <IconShieldCheck size={16} aria-hidden="true" color="var(--mantine-color-teal-filled)" />
            ) : (
              <IconShieldX size={16} aria-hidden="true" color="var(--mantine-color-red-filled)" />
            )}
            <span>
              {lockout.exemptAdmins
                ? 'Portal admins can still open these locks.'
                : 'Nobody can open these locks, admins included.'}
            </span>
          </Group>
        </Fact>
        {state === 'past' && (
          <Text size="sm" c="dimmed">
            This lockout is over: its locks open as their access says.
          </Text>
        )}
      </Stack>
    </SectionCard>
  );
}

function LocksCard({ lockout }: { lockout: LockoutRecord }) {
  const count = lockout.devices.length;
  return (
    <SectionCard
      title="Locks"
      description={`${count === 1 ? '1 lock is' : `${count} locks are`} kept shut during the period.`}
      h="100%"
    >
      <Stack gap="xs" component="ul" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Blocked locks">
        {lockout.devices.map((device) => (
          <li key={device._id}>
            <Anchor component={Link} to={paths.app.device.href(device._id)} underline="never" c="inherit">
              <Group
                gap="sm"
                p="sm"
                wrap="nowrap"
                style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 8 }}
              >
                <ThemeIcon variant="light" color="gray" aria-hidden="true">
                  <IconLock size={18} />
                </ThemeIcon>
                <Text fw={600} size="sm" style={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere' }}>
                  {device.name}
                </Text>
                <IconChevronRight size={16} aria-hidden="true" />
              </Group>
            </Anchor>
          </li>
        ))}
      </Stack>
    </SectionCard>
  );
}

function LockoutActions({ lockout }: { lockout: LockoutRecord }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const remove = useDeleteLockout();
  const [confirming, { open, close }] = useDisclosure(false);
  const active = lockoutState(lockout) === 'active';

  const confirmDelete = async () => {
    try {
      await remove.mutateAsync(lockout._id);
      close();
      notifications.show({
        color: 'teal',
        title: 'Lockout deleted',
        message: `${lockout.name} was deleted.`,
      });
      await navigate(paths.app.lockouts.href());
      queryClient.removeQueries({ queryKey: lockoutKeys.detail(lockout._id) });
    } catch (error) {
      notifications.show({
        color: 'red',
        title: 'Could not delete the lockout',
        message: errorMessage(error),
      });
    }
  };

  return (
    <Group gap="sm">
      <Button
        component={Link}
        to={paths.app.lockoutEdit.href(lockout._id)}
        variant="default"
        leftSection={<IconPencil size={16} aria-hidden="true" />}
      >
        Edit
      </Button>
      <Button
        color="red"
        variant="light"
        leftSection={<IconTrash size={16} aria-hidden="true" />}
        onClick={open}
      >
        Delete
      </Button>
      <ConfirmDialog
        opened={confirming}
        onClose={close}
        title={`Delete ${lockout.name}?`}
        confirmLabel="Delete lockout"
        loading={remove.isPending}
        onConfirm={() => void confirmDelete()}
      >
        {active
          ? 'The lockout ends now: its locks open again for everyone with access.'
          : 'The lockout is removed; its locks are not affected.'}
      </ConfirmDialog>
    </Group>
  );
}

/** /app/lockout/:lockoutId (admin): a lockout's period, exemption and locks; edit, delete. */
export function LockoutPage() {
  const { lockoutId = '' } = useParams();
  const portalZone = usePortalTimeZone();
  return (
    <RecordPage
      query={useLockout(lockoutId)}
      noun="lockout"
      back={{ to: paths.app.lockouts.href(), label: 'All lockouts' }}
      header={(lockout) => ({
        title: lockout.name,
        description: describePeriod(lockout, portalZone),
        aside: <LockoutActions lockout={lockout} />,
      })}
    >
      {(lockout) => (
        <>
          <Group gap={6} wrap="wrap" mt={-8}>
            <LockoutStateBadge lockout={lockout} size="lg" />
            {lockout.exemptAdmins && <ExemptBadge size="lg" />}
          </Group>
          <Grid gap="lg">
            <Grid.Col span={{ base: 12, md: 6 }}>
              <PeriodCard lockout={lockout} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 6 }}>
              <LocksCard lockout={lockout} />
            </Grid.Col>
          </Grid>
        </>
      )}
    </RecordPage>
  );
}
