import { Anchor } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link } from 'react-router';
import { paths } from '@/config/paths';

export function BackLink({
  to = paths.app.lockouts.href(),
  label = 'All lockouts',
}: {
  to?: string;
  label?: string;
}) {
  return (
    <Anchor
      component={Link}
      to={to}
      size="sm"
      style={{ display: 'inline-flex', alignItems: 'center', gap: 4, alignSelf: 'flex-start' }}
    >
      <IconArrowLeft size={16} aria-hidden="true" />
      {label}
    </Anchor>
  );
}
