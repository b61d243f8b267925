import type { PortalDashboard } from '@latchkey/shared';
import type { Database } from '../../db/database';
import { toCount, toIso } from '../../db/mappers';
import type { DeviceRow } from '../../db/schema';
import type { ActingPortal } from '../../base/http/access';
import { countMembers } from '../../base/tenancy/memberships.repository';
import { toPortal } from '../../base/tenancy/portal.presenter';
import { countDevices, listLowBatteryDevices, listOfflineDevices } from '../devices/devices.repository';
import { countGroups } from '../groups/groups.repository';
import { zoneFilter } from '../../base/zones/zone-scope';

// The dashboard stands on the features it counts (people, locks, groups); none of them imports it.

const toDashboardDevice = (d: DeviceRow) => ({
  _id: d.id,
  name: d.name,
  battery: d.battery,
  lastSeenAt: toIso(d.last_seen_at),
});

/**
 * The dashboard: the portal, its people and locks, and the locks that need attention; with a zone,
 * the lock counts and lists are that zone's (and its sub-zones'), people and groups the portal's.
 */
export async function getPortalDashboard(
  db: Database,
  acting: ActingPortal,
  query: { zoneId?: string } = {},
): Promise<PortalDashboard> {
  const portalId = acting.portal.id;
  const zoneIds = await zoneFilter(db, portalId, query.zoneId);
  const [groups, devices, groupCount, lowBattery, offline] = await Promise.all([
    countMembers(db, portalId),
    countDevices(db, portalId, zoneIds),
    countGroups(db, portalId),
    listLowBatteryDevices(db, portalId, undefined, zoneIds),
    listOfflineDevices(db, portalId, 10, zoneIds),
  ]);
  const sum = (match: (g: (typeof groups)[number]) => boolean) =>
    groups.filter(match).reduce((total, g) => total + toCount(g.count), 0);
  return {
    portal: toPortal(acting.portal),
    counts: {
      // Everyone in the portal, invited and suspended too: the member list's total (the
      // dashboard's "Latest members … of N"), so the two never disagree (issue 19, item 8).
      members: sum(() => true),
      admins: sum((g) => g.status === 'active' && g.role === 'admin'),
      users: sum((g) => g.status === 'active' && g.role === 'user'),
      invited: sum((g) => g.status === 'invited'),
      suspended: sum((g) => g.status === 'suspended'),
      devices: toCount(devices.total),
      groups: groupCount,
      offline: toCount(devices.offline),
      lowBattery: toCount(devices.low_battery),
    },
    lowBattery: lowBattery.slice(0, 10).map(toDashboardDevice),
    offline: offline.map(toDashboardDevice),
  };
}
