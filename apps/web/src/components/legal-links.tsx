import { Anchor, Group } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '@/config/paths';

const LEGAL = [
  { topic: 'terms', label: 'Terms' },
  { topic: 'privacy', label: 'Privacy' },
  { topic: 'imprint', label: 'Imprint' },
] as const;

/** The links to the terms, privacy notice and imprint (content pages) in the public footers. */
export function LegalLinks() {
  return (
    <Group component="nav" aria-label="Legal" gap="md">
      {LEGAL.map(({ topic, label }) => (
        <Anchor
          key={topic}
          component={Link}
          to={paths.info.href(topic)}
          size="xs"
          c="dimmed"
          underline="always"
        >
          {label}
        </Anchor>
      ))}
    </Group>
  );
}
