import type { Device, LockoutInEffect } from '@latchkey/shared';
import { Anchor, Badge, Group, Skeleton, Stack, Tabs, Text } from '@mantine/core';
import {
  IconClockCheck,
  IconFingerprint,
  IconHistory,
  IconId,
  IconRefreshDot,
  IconSettings,
  IconUserShare,
  IconUsers,
  IconUsersGroup,
} from '@tabler/icons-react';
import { useEffect, useRef } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { paths } from '@/config/paths';
import { RemoteCommandPanel } from '@/components/remote-command-panel';
import { formatDateTime } from '@/lib/format';
import { remoteUnavailable } from '@/lib/lock-connection';
import { useDevice } from '../api/get-device';
import { deviceTabOf } from '../api/device-tabs';
import { useDeviceAccess } from '../api/get-device-access';
import { useRemoteCommand } from '../api/send-remote-command';
import { DeviceAccessTab } from './device-access-tab';
import { DeviceCardsTab } from './device-cards-tab';
import { DeviceFingerprintsTab } from './device-fingerprints-tab';
import { DeviceGroupsTab } from './device-groups-tab';
import { DeviceGuestsTab } from './device-guests-tab';
import { DeviceHistoryTab } from './device-history-tab';
import { DevicePeopleTab } from './device-people-tab';
import { DeviceSettingsTab } from './device-settings-tab';
import { DeviceSyncTab } from './device-sync-tab';
import { BatteryLevel, LastSeen, modelLabel } from './device-status';
import classes from './device-page.module.css';
import { RecordPage } from '@/components/record-page';
import { ReportProblemLink } from '@/components/report-problem-link';

/**
 * Unlock and Lock in the header, on every tab; disabled with the reason while the lock is not
 * connected, and the unlock while a lockout keeps admins out (the server would refuse it).
 */
function HeaderRemote({ device, lockouts }: { device: Device; lockouts: LockoutInEffect[] }) {
  const remote = useRemoteCommand(device._id);
  const holding = lockouts.find((lockout) => !lockout.exemptAdmins);
  return (
    <RemoteCommandPanel
      remote={remote}
      lockName={device.name}
      size="xs"
      unavailable={remoteUnavailable(device)}
      unlockUnavailable={
        holding
          ? `“${holding.name}” keeps everyone out, admins included, ${untilWords(holding, device)}: end it or let admins through to open the lock.`
          : null
      }
    />
  );
}

function untilWords(lockout: LockoutInEffect, device: Device): string {
  return lockout.until ? `until ${formatDateTime(lockout.until, device.timeZone)}` : 'with no end';
}

/** The lockouts in effect at the lock, each a link to its page: why people cannot open it now. */
function LockoutsInEffect({ device, lockouts }: { device: Device; lockouts: LockoutInEffect[] }) {
  if (lockouts.length === 0) return null;
  return (
    <Stack gap={4}>
      {lockouts.map((lockout) => (
        <Group key={lockout._id} gap={6} wrap="wrap">
          <Badge color="red" variant="light" size="sm" style={{ flexShrink: 0 }}>
            Lockout in effect
          </Badge>
          <Anchor component={Link} to={paths.app.lockout.href(lockout._id)} size="sm">
            {lockout.name}
          </Anchor>
          <Text size="sm" c="dimmed">
            {untilWords(lockout, device)}
            {lockout.exemptAdmins ? ', admins let through' : ''}
          </Text>
        </Group>
      ))}
    </Stack>
  );
}

function HeaderAside({ device }: { device: Device }) {
  // Who can open it now (the "Who can open" tab's read, refreshed each minute) names the lockouts.
  const lockouts = useDeviceAccess(device._id, null).data?.lockouts ?? [];
  return (
    <Stack gap="xs" align="flex-start">
      <Group gap="md" wrap="wrap">
        <LastSeen device={device} />
        <BatteryLevel device={device} withLabel />
      </Group>
      <LockoutsInEffect device={device} lockouts={lockouts} />
      <HeaderRemote device={device} lockouts={lockouts} />
      <ReportProblemLink />
    </Stack>
  );
}

/**
 * /app/device/:deviceId (admin): one lock, its people, who can open it now, its guests, groups,
 * cards, fingerprints, history and settings.
 */
export function DevicePage() {
  const { deviceId = '' } = useParams();
  const query = useDevice(deviceId);
  const [searchParams, setSearchParams] = useSearchParams();
  const tab = deviceTabOf(searchParams);
  const tabList = useRef<HTMLDivElement>(null);

  // On a phone the tabs scroll sideways: keep the chosen one in view (a link may open any tab).
  useEffect(() => {
    const list = tabList.current;
    const active = list?.querySelector<HTMLElement>('[aria-selected="true"]');
    if (!list || !active) return;
    const left = active.offsetLeft - list.offsetLeft;
    if (left < list.scrollLeft || left + active.offsetWidth > list.scrollLeft + list.clientWidth) {
      list.scrollLeft = left - (list.clientWidth - active.offsetWidth) / 2;
    }
  }, [tab, query.isPending]);

  return (
    <RecordPage
      query={query}
      noun="lock"
      back={{ to: paths.app.devices.href(), label: 'All locks' }}
      skeleton={
        <>
          <Skeleton height={40} radius="sm" />
          <Skeleton height={240} radius="lg" />
        </>
      }
      header={(device) => ({
        title: device.name,
        description: `${modelLabel(device.model)} · ${device.timeZone}`,
        aside: <HeaderAside device={device} />,
      })}
    >
      {(device) => (
        <Tabs
          value={tab}
          onChange={(value) =>
            setSearchParams(value && value !== 'people' ? { tab: value } : {}, { replace: true })
          }
          keepMounted={false}
        >
          <Tabs.List className={classes.tabList} ref={tabList}>
            <Tabs.Tab value="people" leftSection={<IconUsers size={16} aria-hidden="true" />}>
              People
            </Tabs.Tab>
            <Tabs.Tab value="access" leftSection={<IconClockCheck size={16} aria-hidden="true" />}>
              Who can open
            </Tabs.Tab>
            <Tabs.Tab value="guests" leftSection={<IconUserShare size={16} aria-hidden="true" />}>
              Guests
            </Tabs.Tab>
            <Tabs.Tab value="groups" leftSection={<IconUsersGroup size={16} aria-hidden="true" />}>
              Groups
            </Tabs.Tab>
            <Tabs.Tab value="cards" leftSection={<IconId size={16} aria-hidden="true" />}>
              Cards
            </Tabs.Tab>
            <Tabs.Tab value="fingerprints" leftSection={<IconFingerprint size={16} aria-hidden="true" />}>
              Fingerprints
            </Tabs.Tab>
            <Tabs.Tab value="history" leftSection={<IconHistory size={16} aria-hidden="true" />}>
              History
            </Tabs.Tab>
            <Tabs.Tab value="sync" leftSection={<IconRefreshDot size={16} aria-hidden="true" />}>
              Sync
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
          <Tabs.Panel value="guests" pt="lg">
            <DeviceGuestsTab device={device} />
          </Tabs.Panel>
          <Tabs.Panel value="groups" pt="lg">
            <DeviceGroupsTab device={device} />
          </Tabs.Panel>
          <Tabs.Panel value="cards" pt="lg">
            <DeviceCardsTab device={device} />
          </Tabs.Panel>
          <Tabs.Panel value="fingerprints" pt="lg">
            <DeviceFingerprintsTab device={device} />
          </Tabs.Panel>
          <Tabs.Panel value="history" pt="lg">
            <DeviceHistoryTab device={device} />
          </Tabs.Panel>
          <Tabs.Panel value="sync" pt="lg">
            <DeviceSyncTab device={device} />
          </Tabs.Panel>
          <Tabs.Panel value="settings" pt="lg">
            <DeviceSettingsTab
              key={`${device._id}:${device.name}:${device.timeZone}:${device.lowBatteryLevel}`}
              device={device}
            />
          </Tabs.Panel>
        </Tabs>
      )}
    </RecordPage>
  );
}
