import { Group, Paper, SimpleGrid, Text, ThemeIcon, type SimpleGridProps } from '@mantine/core';
import type { Icon } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import classes from './stat-cards.module.css';

const number = new Intl.NumberFormat('en-US');

export interface StatCardProps {
  label: string;
  value: number;
  icon: Icon;
  color: string;
  /** Where the card leads (the list it counts), if anywhere. */
  to?: string;
}

/** One count: a label, the number and an icon; a link when it has a list to open. */
export function StatCard({ label, value, icon: StatIcon, color, to }: StatCardProps) {
  const content = (
    <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
      <div style={{ minWidth: 0 }}>
        <Text size="xs" c="dimmed" tt="uppercase" fw={700} className={classes.label}>
          {label}
        </Text>
        <Text fz={28} fw={700} lh={1.2} mt={4}>
          {number.format(value)}
        </Text>
      </div>
      <ThemeIcon variant="light" color={color} size={36} radius="md" aria-hidden="true">
        <StatIcon size={20} stroke={1.8} />
      </ThemeIcon>
    </Group>
  );
  return (
    <li style={{ listStyle: 'none' }}>
      {to ? (
        <Paper component={Link} to={to} withBorder radius="lg" className={`${classes.card} ${classes.link}`}>
          {content}
        </Paper>
      ) : (
        <Paper withBorder radius="lg" className={classes.card}>
          {content}
        </Paper>
      )}
    </li>
  );
}

interface StatGridProps {
  /** What the counts are about, for screen readers ("Lock counts"). */
  label: string;
  cols: SimpleGridProps['cols'];
  children: ReactNode;
}

/** A responsive row of stat cards, as a list. */
export function StatGrid({ label, cols, children }: StatGridProps) {
  return (
    <SimpleGrid cols={cols} spacing={{ base: 'sm', sm: 'md' }} component="ul" aria-label={label} m={0} p={0}>
      {children}
    </SimpleGrid>
  );
}
