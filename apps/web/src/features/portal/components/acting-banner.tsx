import { Box, Button, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconBuildingStore, IconShieldCheck } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { paths } from '@/config/paths';
import { actingReturnPath, useClearPortalOverride } from '@/lib/portal-override';
import { storage } from '@/lib/storage';
import { useStoredValue } from '@/lib/use-storage';
import { usePortalActing } from '../api/get-portal-acting';

const ROLE_WORDS = { reseller: 'as its reseller', platform: 'as platform staff' } as const;
/** Where the way back leads when nothing was remembered: the reseller's customers, the platform console. */
const FALLBACK = { reseller: () => paths.app.reseller.href(), platform: () => paths.app.platform.href() };

/**
 * While a reseller or platform staff act in someone else's portal through the portal override:
 * whose portal it is and in which capacity (the server's answer, GET portal/acting), and the way
 * back. "Back to your portal" clears the override (brief §4) and returns to the screen the person
 * came from, else to the reseller's customers or the platform console.
 */
export function ActingBanner() {
  const navigate = useNavigate();
  const override = useStoredValue(storage.getPortal);
  const { data: acting } = usePortalActing(override);
  const clear = useClearPortalOverride();
  if (!override || !acting || acting.via === 'member') return null;
  const via = acting.via;

  const back = () => {
    // Read before clearing: clearing the override forgets it.
    const to = actingReturnPath() ?? FALLBACK[via]();
    clear.mutate(undefined, {
      onSuccess: () => {
        notifications.show({
          color: 'teal',
          title: 'Back in your portal',
          message: `You left ${acting.portal.name}.`,
        });
        void navigate(to);
      },
    });
  };

  const Icon = via === 'reseller' ? IconBuildingStore : IconShieldCheck;
  return (
    <Box
      component="section"
      aria-label="Working in another portal"
      mb="lg"
      p="sm"
      style={{
        position: 'sticky',
        top: 'calc(var(--app-shell-header-offset, 60px) + 8px)',
        zIndex: 49,
        borderRadius: 'var(--mantine-radius-lg)',
        background: 'var(--mantine-primary-color-filled)',
        color: 'var(--mantine-color-white)',
        boxShadow: 'var(--mantine-shadow-md)',
      }}
    >
      <Group justify="space-between" gap="sm" wrap="wrap">
        <Group gap="sm" wrap="nowrap" style={{ minWidth: 0, flex: '1 1 260px' }}>
          <Icon size={24} aria-hidden="true" style={{ flexShrink: 0 }} />
          <Text size="sm" fw={500} c="inherit" style={{ overflowWrap: 'anywhere' }}>
            You are working in <strong>{acting.portal.name}</strong> ({acting.ownerEmail})’s portal{' '}
            {ROLE_WORDS[via]}
          </Text>
        </Group>
        <Button variant="white" size="xs" loading={clear.isPending} onClick={back}>
          Back to your portal
        </Button>
      </Group>
    </Box>
  );
}
