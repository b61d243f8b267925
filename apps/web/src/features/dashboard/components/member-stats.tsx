import type { PortalDashboard } from '@latchkey/shared';
import { Group, Paper, SimpleGrid, Text, ThemeIcon } from '@mantine/core';
import {
  IconMailForward,
  IconShieldCheck,
  IconUser,
  IconUserOff,
  IconUsersGroup,
  type Icon,
} from '@tabler/icons-react';

type Counts = PortalDashboard['counts'];

const STATS: { key: keyof Counts; label: string; icon: Icon; color: string }[] = [
  { key: 'members', label: 'Members', icon: IconUsersGroup, color: 'latchkey' },
  { key: 'admins', label: 'Admins', icon: IconShieldCheck, color: 'indigo' },
  { key: 'users', label: 'Users', icon: IconUser, color: 'teal' },
  { key: 'invited', label: 'Invited', icon: IconMailForward, color: 'yellow' },
  { key: 'suspended', label: 'Suspended', icon: IconUserOff, color: 'red' },
];

const number = new Intl.NumberFormat('en-US');

/** The portal's member counts as stat cards. */
export function MemberStats({ counts }: { counts: Counts }) {
  return (
    <SimpleGrid
      cols={{ base: 2, sm: 3, md: 5 }}
      spacing={{ base: 'sm', sm: 'md' }}
      component="ul"
      m={0}
      p={0}
    >
      {STATS.map(({ key, label, icon: StatIcon, color }) => (
        <Paper key={key} component="li" withBorder radius="lg" p="md" style={{ listStyle: 'none' }}>
          <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
            <div>
              <Text size="xs" c="dimmed" tt="uppercase" fw={700} style={{ letterSpacing: '0.04em' }}>
                {label}
              </Text>
              <Text fz={28} fw={700} lh={1.2} mt={4}>
                {number.format(counts[key])}
              </Text>
            </div>
            <ThemeIcon variant="light" color={color} size={36} radius="md" aria-hidden="true">
              <StatIcon size={20} stroke={1.8} />
            </ThemeIcon>
          </Group>
        </Paper>
      ))}
    </SimpleGrid>
  );
}
