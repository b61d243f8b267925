import type { Session } from '@latchkey/shared';
import { Box, Group, Menu, Text, UnstyledButton } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconArrowBackUp, IconBuilding, IconCheck, IconSelector } from '@tabler/icons-react';
import { PortalStatusBadge } from '@/components/portal-status-badge';
import { errorMessage } from '@/lib/errors';
import { useClearPortalOverride } from '@/lib/portal-override';
import { useSwitchPortal } from '../api/switch-portal';
import { storage } from '@/lib/storage';
import { useStoredValue } from '@/lib/use-storage';
import classes from './portal-switcher.module.css';

interface PortalOption {
  id: string;
  name: string;
  label: string;
}

/** Active memberships plus the portal being acted in (a superAdmin may act without one). */
export function portalOptions(session: Session): PortalOption[] {
  const options: PortalOption[] = session.memberships
    .filter((membership) => membership.status === 'active')
    .map((membership) => ({
      id: membership.portal._id,
      name: membership.portal.name,
      label: membership.owner ? 'Owner' : membership.role === 'admin' ? 'Admin' : 'Member',
    }));
  const current = session.portal;
  if (current && !options.some((option) => option.id === current._id)) {
    options.unshift({ id: current._id, name: current.name, label: 'Platform access' });
  }
  return options;
}

/** The header's portal switcher (brief §4): choose where to act, or go back to one's own portal. */
export function PortalSwitcher({ session }: { session: Session }) {
  const switchPortal = useSwitchPortal();
  const clearOverride = useClearPortalOverride();
  const override = useStoredValue(storage.getPortal);
  const current = session.portal;
  const options = portalOptions(session);
  if (!current && options.length === 0) return null;

  const choose = (option: PortalOption) => {
    if (option.id === current?._id) return;
    switchPortal.mutate(option.id, {
      onSuccess: (context) =>
        notifications.show({
          color: 'teal',
          title: 'Portal switched',
          message: `You are now working in ${context.portal.name}.`,
        }),
      onError: (error) =>
        notifications.show({ color: 'red', title: 'Could not switch portal', message: errorMessage(error) }),
    });
  };

  const backToOwn = () =>
    clearOverride.mutate(undefined, {
      onSuccess: () =>
        notifications.show({
          color: 'teal',
          title: 'Portal switched',
          message: 'You are back in your own portal.',
        }),
    });

  const name = current?.name ?? 'Choose a portal';

  return (
    <Menu position="bottom-end" width={300} shadow="md" withinPortal>
      <Menu.Target>
        <UnstyledButton className={classes.target} aria-label={`Portal: ${name}. Change portal`}>
          <Group gap={8} wrap="nowrap">
            <IconBuilding size={18} stroke={1.7} aria-hidden="true" className={classes.icon} />
            <Text size="sm" fw={600} truncate="end" className={classes.name}>
              {name}
            </Text>
            {current && <PortalStatusBadge portal={current} size="sm" visibleFrom="sm" />}
            <IconSelector size={16} aria-hidden="true" className={classes.icon} />
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        {current && (
          <Box px="sm" pt="xs" pb={6}>
            <Text size="xs" c="dimmed">
              Working in
            </Text>
            <Group gap="xs" justify="space-between" wrap="nowrap">
              <Text size="sm" fw={600} truncate="end">
                {current.name}
              </Text>
              <PortalStatusBadge portal={current} size="sm" />
            </Group>
          </Box>
        )}
        <Menu.Divider />
        <Menu.Label>Your portals</Menu.Label>
        {options.map((option) => {
          const selected = option.id === current?._id;
          return (
            <Menu.Item
              key={option.id}
              onClick={() => choose(option)}
              aria-current={selected ? 'true' : undefined}
              leftSection={
                selected ? <IconCheck size={16} aria-hidden="true" /> : <Box w={16} aria-hidden="true" />
              }
              rightSection={
                <Text size="xs" c="dimmed">
                  {option.label}
                </Text>
              }
              disabled={switchPortal.isPending}
            >
              <Text size="sm" truncate="end" maw={170}>
                {option.name}
              </Text>
            </Menu.Item>
          );
        })}
        {override && (
          <>
            <Menu.Divider />
            <Menu.Item leftSection={<IconArrowBackUp size={16} aria-hidden="true" />} onClick={backToOwn}>
              Back to my portal
            </Menu.Item>
          </>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}
