import { Group, Text, ThemeIcon } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { Link } from 'react-router';
import { paths } from '@/config/paths';

const STEPS = [
  { label: 'Cart', to: paths.shop.cart.href() },
  { label: 'Address', to: paths.shop.address.href() },
  { label: 'Shipping', to: paths.shop.shipping.href() },
  { label: 'Payment', to: null },
] as const;

/** Where the buyer is on the way to paying: steps done link back, the current one is marked. */
export function CheckoutSteps({ current }: { current: 0 | 1 | 2 | 3 }) {
  return (
    <nav aria-label="Checkout steps">
      <Group component="ol" gap="xs" wrap="wrap" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {STEPS.map((step, index) => {
          const done = index < current;
          const here = index === current;
          const marker = (
            <ThemeIcon
              size={24}
              radius="xl"
              variant={here || done ? 'filled' : 'light'}
              color={done ? 'teal' : 'latchkey'}
              aria-hidden="true"
            >
              {done ? (
                <IconCheck size={14} />
              ) : (
                <Text size="xs" fw={700} c="inherit">
                  {index + 1}
                </Text>
              )}
            </ThemeIcon>
          );
          return (
            <Group
              component="li"
              key={step.label}
              gap={6}
              wrap="nowrap"
              aria-current={here ? 'step' : undefined}
            >
              {marker}
              {done && step.to ? (
                <Text component={Link} to={step.to} size="sm" fw={500} c="inherit" td="underline">
                  {step.label}
                </Text>
              ) : (
                <Text size="sm" fw={here ? 700 : 500} c={here ? undefined : 'dimmed'}>
                  {step.label}
                </Text>
              )}
              {index < STEPS.length - 1 && (
                <Text c="dimmed" aria-hidden="true" px={2}>
                  ›
                </Text>
              )}
            </Group>
          );
        })}
      </Group>
    </nav>
  );
}
