import type { Session } from '@latchkey/shared';
import { Avatar, Badge, Group, Menu, Text, UnstyledButton } from '@mantine/core';
import {
  IconChevronDown,
  IconEdit,
  IconInfoCircle,
  IconLifebuoy,
  IconLogout,
  IconSettings,
} from '@tabler/icons-react';
import { Link, useLocation } from 'react-router';
import { paths } from '@/config/paths';
import { useCmsMode } from '@/features/content/lib/cms-mode';
import { hasRequiredRole } from '@/lib/authorization';
import { displayName } from '@/lib/session';
import classes from './app-frame.module.css';

interface UserMenuProps {
  session: Session;
  settingsPath: string;
}

function initials(user: Session['user']): string {
  const letters = `${user.firstName.trim()[0] ?? ''}${user.lastName.trim()[0] ?? ''}`;
  return (letters || user.email[0] || '?').toUpperCase();
}

/** The signed-in person, with Settings and Sign out. */
export function UserMenu({ session, settingsPath }: UserMenuProps) {
  const name = displayName(session.user);
  // "Help & support" carries the screen the person is on, which their request names (navId).
  const { pathname, search } = useLocation();
  const cms = useCmsMode();
  return (
    <Menu position="bottom-end" width={240} shadow="md" withinPortal>
      <Menu.Target>
        <UnstyledButton className={classes.userButton} aria-label={`Account menu for ${name}`}>
          <Group gap={8} wrap="nowrap">
            <Avatar size={32} radius="xl" color="latchkey" variant="filled">
              {initials(session.user)}
            </Avatar>
            <Text size="sm" fw={500} visibleFrom="md" maw={160} truncate="end">
              {name}
            </Text>
            <IconChevronDown size={14} aria-hidden="true" />
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>
          <Text size="sm" fw={600} c="var(--mantine-color-text)" truncate="end">
            {name}
          </Text>
          <Text size="xs" c="dimmed" truncate="end">
            {session.user.email}
          </Text>
        </Menu.Label>
        <Menu.Divider />
        <Menu.Item
          component={Link}
          to={settingsPath}
          leftSection={<IconSettings size={16} aria-hidden="true" />}
        >
          Settings
        </Menu.Item>
        <Menu.Item
          component={Link}
          to={paths.app.support.href({ from: `${pathname}${search}` })}
          leftSection={<IconLifebuoy size={16} aria-hidden="true" />}
        >
          Help & support
        </Menu.Item>
        {hasRequiredRole(session.roles, ['admin']) && session.portal !== null && (
          // What this installation runs: looked up now and then, so here rather than in the sidebar.
          <Menu.Item
            component={Link}
            to={paths.app.about.href()}
            leftSection={<IconInfoCircle size={16} aria-hidden="true" />}
          >
            About Latchkey
          </Menu.Item>
        )}
        {cms.available && (
          // Platform staff: CMS mode shows Edit on content pages and hide/show beside nav entries.
          <Menu.Item
            closeMenuOnClick={false}
            onClick={() => cms.setEnabled(!cms.enabled)}
            leftSection={<IconEdit size={16} aria-hidden="true" />}
            rightSection={
              <Badge
                size="sm"
                variant={cms.enabled ? 'filled' : 'outline'}
                color={cms.enabled ? 'latchkey' : 'gray'}
              >
                {cms.enabled ? 'On' : 'Off'}
              </Badge>
            }
          >
            CMS mode
          </Menu.Item>
        )}
        <Menu.Item
          component={Link}
          to={paths.auth.logout.href()}
          color="red"
          leftSection={<IconLogout size={16} aria-hidden="true" />}
        >
          Sign out
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
