import { Anchor, Group, Paper, Skeleton, Stack, Tabs } from '@mantine/core';
import {
  IconArrowLeft,
  IconClockCheck,
  IconId,
  IconSettings,
  IconUsers,
  IconUsersGroup,
} from '@tabler/icons-react';
import { Link, useParams, useSearchParams } from 'react-router';
import { MissingRecord } from '@/components/missing-record';
import { PageHeader } from '@/components/page-header';
import { QueryError } from '@/components/query-error';
import { isApiError } from '@/lib/api-client';
import { useDevice } from '../api/get-device';
import { DeviceAccessTab } from './device-access-tab';
import { DeviceCardsTab } from './device-cards-tab';
import { DeviceGroupsTab } from './device-groups-tab';
import { DevicePeopleTab } from './device-people-tab';
import { DeviceSettingsTab } from './device-settings-tab';
import { BatteryLevel, LastSeen, modelLabel } from './device-status';
import classes from './device-page.module.css';

const TABS = ['people', 'access', 'groups', 'cards', 'settings'] as const;
type DeviceTab = (typeof TABS)[number];

function BackToLocks() {
  return (
    <Anchor component={Link} to="/app/device" size="sm" className={classes.back}>
      <IconArrowLeft size={16} aria-hidden="true" />
      All locks
    </Anchor>
  );
}

/** /app/device/:deviceId (admin): one lock, its people, who can open it now, its groups, cards and settings. */
export function DevicePage() {
  const { deviceId = '' } = useParams();
  const { data: device, error, isPending, refetch } = useDevice(deviceId);
  const [searchParams, setSearchParams] = useSearchParams();
  const tabParam = searchParams.get('tab') as DeviceTab | null;
  const tab: DeviceTab = tabParam && TABS.includes(tabParam) ? tabParam : 'people';

  if (isPending) {
    return (
      <Stack gap="lg" role="status" aria-label="Loading the lock">
        <Skeleton height={34} width="40%" radius="sm" />
        <Skeleton height={40} radius="sm" />
        <Skeleton height={240} radius="lg" />
      </Stack>
    );
  }
  if (error) {
    if (isApiError(error) && error.status === 404) {
      return <MissingRecord what="This lock" backTo="/app/device" backLabel="All locks" />;
    }
    return (
      <Stack gap="lg">
        <BackToLocks />
        <Paper p="md" radius="lg">
          <QueryError title="Could not load the lock" error={error} onRetry={() => void refetch()} />
        </Paper>
      </Stack>
    );
  }

  return (
    <Stack gap="lg">
      <BackToLocks />
      <PageHeader
        title={device.name}
        description={`${modelLabel(device.model)} · ${device.timeZone}`}
        aside={
          <Group gap="md" wrap="wrap">
            <LastSeen device={device} />
            <BatteryLevel device={device} withLabel />
          </Group>
        }
      />
      <Tabs
        value={tab}
        onChange={(value) =>
          setSearchParams(value && value !== 'people' ? { tab: value } : {}, { replace: true })
        }
        keepMounted={false}
      >
        <Tabs.List className={classes.tabList}>
          <Tabs.Tab value="people" leftSection={<IconUsers size={16} aria-hidden="true" />}>
            People
          </Tabs.Tab>
          <Tabs.Tab value="access" leftSection={<IconClockCheck size={16} aria-hidden="true" />}>
            Who can open
          </Tabs.Tab>
          <Tabs.Tab value="groups" leftSection={<IconUsersGroup size={16} aria-hidden="true" />}>
            Groups
          </Tabs.Tab>
          <Tabs.Tab value="cards" leftSection={<IconId size={16} aria-hidden="true" />}>
            Cards
          </Tabs.Tab>
          <Tabs.Tab value="settings" leftSection={<IconSettings size={16} aria-hidden="true" />}>
            Settings
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="people" pt="lg">
          <DevicePeopleTab device={device} />
        </Tabs.Panel>
        <Tabs.Panel value="access" pt="lg">
          <DeviceAccessTab device={device} />
        </Tabs.Panel>
        <Tabs.Panel value="groups" pt="lg">
          <DeviceGroupsTab device={device} />
        </Tabs.Panel>
        <Tabs.Panel value="cards" pt="lg">
          <DeviceCardsTab device={device} />
        </Tabs.Panel>
        <Tabs.Panel value="settings" pt="lg">
          <DeviceSettingsTab
            key={`${device._id}:${device.name}:${device.timeZone}:${device.lowBatteryLevel}`}
            device={device}
          />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
