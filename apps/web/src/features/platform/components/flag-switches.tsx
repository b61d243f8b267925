import type { FeatureFlagInput, FeatureFlagState } from '@latchkey/shared';
import { Badge, Group, SegmentedControl, Stack, Text } from '@mantine/core';

interface FlagSwitchesProps {
  flags: FeatureFlagState[];
  /** 'deployment': on, off or the default; 'portal': on, off or follow the deployment. */
  scope: 'deployment' | 'portal';
  pending: string | null;
  onChange: (input: FeatureFlagInput) => void;
}

const SOURCE_LABEL = { default: 'default', deployment: 'deployment', portal: 'this portal' } as const;

/** Each feature flag with a three-way switch (on, off, inherit) and where its value comes from now. */
export function FlagSwitches({ flags, scope, pending, onChange }: FlagSwitchesProps) {
  return (
    <Stack gap="md">
      {flags.map((flag) => {
        const own = scope === 'deployment' ? flag.deployment : flag.portal;
        const inherited =
          scope === 'deployment' ? flag.defaultEnabled : (flag.deployment ?? flag.defaultEnabled);
        const inheritLabel = `${scope === 'deployment' ? 'Default' : 'Deployment'} (${inherited ? 'on' : 'off'})`;
        return (
          <Group key={flag.id} justify="space-between" align="center" gap="sm" wrap="wrap">
            <Stack gap={2} style={{ flex: '1 1 260px', minWidth: 0 }}>
              <Group gap="xs">
                <Text fw={600} size="sm" id={`flag-${scope}-${flag.id}`}>
                  {flag.label}
                </Text>
                <Badge size="sm" variant="light" color={flag.enabled ? 'teal' : 'gray'}>
                  {flag.enabled ? 'On' : 'Off'}
                </Badge>
                <Text size="xs" c="dimmed">
                  from the {SOURCE_LABEL[flag.source]}
                </Text>
              </Group>
              <Text size="sm" c="dimmed">
                {flag.description}
              </Text>
            </Stack>
            <SegmentedControl
              aria-labelledby={`flag-${scope}-${flag.id}`}
              size="xs"
              disabled={pending === flag.id}
              value={own === null ? 'inherit' : own ? 'on' : 'off'}
              onChange={(value) =>
                onChange({ flag: flag.id, enabled: value === 'inherit' ? null : value === 'on' })
              }
              data={[
                { value: 'on', label: 'On' },
                { value: 'off', label: 'Off' },
                { value: 'inherit', label: inheritLabel },
              ]}
            />
          </Group>
        );
      })}
    </Stack>
  );
}
