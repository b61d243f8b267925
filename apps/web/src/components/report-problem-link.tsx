import { Button } from '@mantine/core';
import { IconLifebuoy } from '@tabler/icons-react';
import { Link, useLocation } from 'react-router';
import { paths } from '@/config/paths';

/**
 * "Report a problem with this lock": opens the support form of the lock type, naming this screen
 * (the request's navId), so support sees which lock it is about.
 */
export function ReportProblemLink({ label = 'Report a problem with this lock' }: { label?: string }) {
  const { pathname, search } = useLocation();
  return (
    <Button
      component={Link}
      to={paths.app.supportType.href('lock', { from: `${pathname}${search}` })}
      variant="subtle"
      size="sm"
      leftSection={<IconLifebuoy size={16} aria-hidden="true" />}
      style={{ alignSelf: 'flex-start' }}
    >
      {label}
    </Button>
  );
}
