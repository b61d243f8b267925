import type { Key } from '@latchkey/shared';
import { ActionIcon, Anchor, Badge, Divider, Group, Stack, Text, Tooltip } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconLink, IconLinkOff, IconLock } from '@tabler/icons-react';
import { Fragment, useState } from 'react';
import { Link } from 'react-router';
import { AddPicker } from '@/components/add-picker';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { SectionCard } from '@/components/section-card';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/errors';
import { useLinkKeyDevice, useUnlinkKeyDevice } from '../api/link-key-device';
import { useLockOptions } from '@/features/devices/api/get-devices';

type LockRef = Key['devices'][number];

/** The locks a key works at (or fits): link another, unlink one. */
export function KeyLocksCard({ keyRecord: key }: { keyRecord: Key }) {
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search, 250);
  const lockOptions = useLockOptions(debouncedSearch);
  const link = useLinkKeyDevice();
  const unlink = useUnlinkKeyDevice();
  const [unlinking, setUnlinking] = useState<LockRef | null>(null);
  const physical = key.type === 'physical';

  const linked = new Set(key.devices.map((device) => device._id));
  const options = (lockOptions.data?.items ?? [])
    .filter((lock) => !linked.has(lock._id))
    .map((lock) => ({ value: lock._id, label: lock.name }));

  const add = async (deviceId: string) => {
    const lock = lockOptions.data?.items.find((item) => item._id === deviceId);
    try {
      await link.mutateAsync({ keyId: key._id, deviceId });
      notifications.show({
        color: 'teal',
        title: 'Lock linked',
        message: `${key.name} ${physical ? 'fits' : 'works at'} ${lock?.name ?? 'the lock'}.`,
      });
    } catch (error) {
      notifications.show({ color: 'red', title: 'Could not link the lock', message: errorMessage(error) });
      throw error;
    }
  };

  const confirmUnlink = async () => {
    if (!unlinking) return;
    try {
      await unlink.mutateAsync({ keyId: key._id, deviceId: unlinking._id });
      notifications.show({
        color: 'teal',
        title: 'Lock unlinked',
        message: `${key.name} is no longer linked to ${unlinking.name}.`,
      });
      setUnlinking(null);
    } catch (error) {
      notifications.show({ color: 'red', title: 'Could not unlink the lock', message: errorMessage(error) });
    }
  };

  return (
    <SectionCard
      title="Locks"
      description={physical ? 'The locks this key fits.' : 'The only locks this key opens.'}
      aside={
        <Badge variant="light" size="lg">
          {key.devices.length}
        </Badge>
      }
    >
      <Stack gap="md">
        <AddPicker
          label="Link a lock"
          placeholder="Search the portal's locks"
          options={options}
          actionLabel="Link"
          loading={lockOptions.isPending}
          onSearchChange={setSearch}
          nothingFound="No lock matches"
          onAdd={add}
        />
        <Divider />
        {key.devices.length === 0 ? (
          <Stack align="center" gap={6} py="md" ta="center">
            <IconLock size={32} stroke={1.4} aria-hidden="true" color="var(--mantine-color-dimmed)" />
            <Text fw={600}>No locks yet</Text>
            <Text size="sm" c="dimmed">
              {physical ? 'Link the locks this key fits.' : 'Until you link a lock, this key opens nothing.'}
            </Text>
          </Stack>
        ) : (
          <Stack gap={0} component="ul" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Linked locks">
            {key.devices.map((device, index) => (
              <Fragment key={device._id}>
                {index > 0 && <Divider component="li" aria-hidden="true" />}
                <li>
                  <Group justify="space-between" gap="sm" py="xs" wrap="nowrap">
                    <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
                      <IconLink size={16} aria-hidden="true" color="var(--mantine-color-dimmed)" />
                      <Anchor
                        component={Link}
                        to={paths.app.device.href(device._id)}
                        fw={600}
                        size="sm"
                        style={{ overflowWrap: 'anywhere' }}
                      >
                        {device.name}
                      </Anchor>
                    </Group>
                    <Tooltip label="Unlink">
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        size="lg"
                        onClick={() => setUnlinking(device)}
                        aria-label={`Unlink ${device.name}`}
                      >
                        <IconLinkOff size={18} aria-hidden="true" />
                      </ActionIcon>
                    </Tooltip>
                  </Group>
                </li>
              </Fragment>
            ))}
          </Stack>
        )}
      </Stack>
      <ConfirmDialog
        opened={unlinking !== null}
        onClose={() => setUnlinking(null)}
        title={`Unlink ${unlinking?.name ?? 'the lock'}?`}
        confirmLabel="Unlink lock"
        loading={unlink.isPending}
        onConfirm={() => void confirmUnlink()}
      >
        {physical
          ? `${key.name} is no longer recorded as fitting ${unlinking?.name ?? 'this lock'}.`
          : `${key.name} stops opening ${unlinking?.name ?? 'this lock'} at once.`}
      </ConfirmDialog>
    </SectionCard>
  );
}
