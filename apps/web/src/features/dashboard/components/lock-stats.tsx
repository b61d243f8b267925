import type { PortalDashboard } from '@latchkey/shared';
import { IconBatteryOff, IconLock, IconPlugConnectedX, IconUsersGroup } from '@tabler/icons-react';
import { StatCard, StatGrid } from './stat-cards';
import { paths } from '@/config/paths';

type Counts = PortalDashboard['counts'];

/** How many locks and groups the portal has, and how many locks are offline or running low. */
export function LockStats({ counts }: { counts: Counts }) {
  return (
    <StatGrid label="Lock counts" cols={{ base: 2, md: 4 }}>
      <StatCard
        label="Locks"
        value={counts.devices}
        icon={IconLock}
        color="latchkey"
        to={paths.app.devices.href()}
      />
      <StatCard
        label="Groups"
        value={counts.groups}
        icon={IconUsersGroup}
        color="indigo"
        to={paths.app.groups.href()}
      />
      {/* Teal while nothing needs doing, a warning colour once something does. */}
      <StatCard
        label="Offline"
        value={counts.offline}
        icon={IconPlugConnectedX}
        color={counts.offline > 0 ? 'orange' : 'teal'}
      />
      <StatCard
        label="Low battery"
        value={counts.lowBattery}
        icon={IconBatteryOff}
        color={counts.lowBattery > 0 ? 'red' : 'teal'}
      />
    </StatGrid>
  );
}
