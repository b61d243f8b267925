import type { FeatureFlagInput, FeatureFlagState } from '@latchkey/shared';
import { Badge, Group, SegmentedControl, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { UseMutationResult, UseQueryResult } from '@tanstack/react-query';
import { QueryError } from '@/components/query-error';
import { TableSkeleton } from '@/components/table-skeleton';
import { errorMessage } from '@/lib/errors';

interface LoadedFlagSwitchesProps {
  flags: UseQueryResult<FeatureFlagState[]>;
  setFlag: UseMutationResult<unknown, Error, FeatureFlagInput>;
  scope: 'deployment' | 'portal';
  /** The notice's text once a switch is saved ("Saved for this portal."). */
  savedMessage: string;
}

/**
 * The flags of one scope as they load: a skeleton, the failure with a retry, or the switches, each
 * change saved with a notice (the deployment's card and a portal's card alike).
 */
export function LoadedFlagSwitches({ flags, setFlag, scope, savedMessage }: LoadedFlagSwitchesProps) {
  if (flags.isPending) return <TableSkeleton label="Loading features" rows={3} />;
  if (flags.error) {
    return (
      <QueryError
        title="Could not load the features"
        error={flags.error}
        onRetry={() => void flags.refetch()}
      />
    );
  }
  const change = (input: FeatureFlagInput) =>
    setFlag.mutate(input, {
      onSuccess: () =>
        notifications.show({ color: 'teal', title: 'Feature switched', message: savedMessage }),
      onError: (error) =>
        notifications.show({
          color: 'red',
          title: 'Could not switch the feature',
          message: errorMessage(error),
        }),
    });
  return (
    <FlagSwitches
      flags={flags.data}
      scope={scope}
      pending={setFlag.isPending ? (setFlag.variables?.flag ?? null) : null}
      onChange={change}
    />
  );
}

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
