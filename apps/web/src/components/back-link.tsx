import { Anchor } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link } from 'react-router';

/** "← All keys": the way back to a detail screen's list, above its title. */
export function BackLink({ to, label }: { to: string; label: string }) {
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
