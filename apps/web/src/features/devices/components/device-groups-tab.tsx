import type { Device } from '@latchkey/shared';
import { Anchor, Group, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconChevronRight, IconUsersGroup } from '@tabler/icons-react';
import { Link } from 'react-router';
import { QueryError } from '@/components/query-error';
import { SectionCard } from '@/components/section-card';
import { TableSkeleton } from '@/components/table-skeleton';
import { useDeviceGroups } from '../api/get-device-groups';
import { paths } from '@/config/paths';

/** The Groups tab: the groups whose people may use this lock. */
export function DeviceGroupsTab({ device }: { device: Device }) {
  const { data, error, isPending, refetch } = useDeviceGroups(device._id);

  let body;
  if (isPending) body = <TableSkeleton rows={2} label="Loading groups" />;
  else if (error)
    body = <QueryError title="Could not load the groups" error={error} onRetry={() => void refetch()} />;
  else if (data.length === 0) {
    body = (
      <Stack align="center" gap={6} py="lg" ta="center">
        <IconUsersGroup size={32} stroke={1.4} aria-hidden="true" color="var(--mantine-color-dimmed)" />
        <Text fw={600}>No group gives access to this lock</Text>
        <Text size="sm" c="dimmed">
          Add the lock to a group on the{' '}
          <Anchor component={Link} to={paths.app.groups.href()} size="sm">
            Groups
          </Anchor>{' '}
          page to let all its people in.
        </Text>
      </Stack>
    );
  } else {
    body = (
      <Stack gap="xs" component="ul" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Groups">
        {data.map((group) => (
          <li key={group._id}>
            <Anchor component={Link} to={paths.app.group.href(group._id)} underline="never" c="inherit">
              <Group
                gap="sm"
                p="sm"
                wrap="nowrap"
                style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 8 }}
              >
                <ThemeIcon variant="light" color="grape" aria-hidden="true">
                  <IconUsersGroup size={18} />
                </ThemeIcon>
                <Text fw={600} size="sm" style={{ flex: 1 }}>
                  {group.name}
                </Text>
                <IconChevronRight size={16} aria-hidden="true" />
              </Group>
            </Anchor>
          </li>
        ))}
      </Stack>
    );
  }

  return (
    <SectionCard title="Groups" description="Everyone in these groups may use this lock.">
      {body}
    </SectionCard>
  );
}
