import type { PortalDashboard } from '@latchkey/shared';
import {
  IconMailForward,
  IconShieldCheck,
  IconUser,
  IconUserOff,
  IconUsers,
  type Icon,
} from '@tabler/icons-react';
import { StatCard, StatGrid } from './stat-cards';

type Counts = PortalDashboard['counts'];

// "Members" counts everyone in the portal; the role counts are of active members only (an invited
// or suspended person is counted apart), so their labels say so: "Users 1" beside four people with
// the user role read as a wrong number.
const STATS: { key: keyof Counts; label: string; icon: Icon; color: string }[] = [
  { key: 'members', label: 'Members', icon: IconUsers, color: 'latchkey' },
  { key: 'admins', label: 'Active admins', icon: IconShieldCheck, color: 'indigo' },
  { key: 'users', label: 'Active users', icon: IconUser, color: 'teal' },
  { key: 'invited', label: 'Invited', icon: IconMailForward, color: 'yellow' },
  { key: 'suspended', label: 'Suspended', icon: IconUserOff, color: 'red' },
];

/** The portal's member counts as stat cards. */
export function MemberStats({ counts }: { counts: Counts }) {
  return (
    <StatGrid label="Member counts" cols={{ base: 2, sm: 3, md: 5 }}>
      {STATS.map(({ key, label, icon, color }) => (
        <StatCard key={key} label={label} value={counts[key]} icon={icon} color={color} />
      ))}
    </StatGrid>
  );
}
