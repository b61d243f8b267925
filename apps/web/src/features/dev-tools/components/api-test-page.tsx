import { Alert, Badge, Button, Group, List, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconCircleX, IconRefresh } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useEffect } from 'react';
import { runApiChecks, type CheckResult, type CheckState } from './api-checks';

const STATE_BADGE: Record<CheckState, { label: string; color: string; icon: typeof IconCircleCheck }> = {
  passed: { label: 'Passed', color: 'green', icon: IconCircleCheck },
  warning: { label: 'Warning', color: 'yellow', icon: IconAlertTriangle },
  failed: { label: 'Failed', color: 'red', icon: IconCircleX },
};

function CheckCard({ check }: { check: CheckResult }) {
  const badge = STATE_BADGE[check.state];
  const Icon = badge.icon;
  const titleId = `check-${check.id}`;
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby={titleId}>
      <Group justify="space-between" align="flex-start" gap="xs" wrap="nowrap">
        <Title order={2} fz="md" id={titleId}>
          {check.title}
        </Title>
        <Badge
          color={badge.color}
          variant="light"
          leftSection={<Icon size={14} aria-hidden="true" />}
          data-testid={`check-state-${check.id}`}
        >
          {badge.label}
        </Badge>
      </Group>
      <Text size="sm" mt={6}>
        {check.summary}
      </Text>
      {check.details.length > 0 && (
        <List size="xs" mt={6} c="dimmed" spacing={2} style={{ overflowWrap: 'anywhere' }}>
          {check.details.map((detail) => (
            <List.Item key={detail}>{detail}</List.Item>
          ))}
        </List>
      )}
    </Paper>
  );
}

function Summary({ checks }: { checks: CheckResult[] }) {
  const failed = checks.filter((check) => check.state === 'failed').length;
  const warnings = checks.filter((check) => check.state === 'warning').length;
  if (failed > 0)
    return (
      <Alert
        color="red"
        icon={<IconCircleX aria-hidden="true" />}
        title={`${failed} of ${checks.length} checks failed`}
      >
        See each check below for what was sent and seen.
      </Alert>
    );
  if (warnings > 0)
    return (
      <Alert
        color="yellow"
        icon={<IconAlertTriangle aria-hidden="true" />}
        title={`All checks passed, ${warnings} with a warning`}
      >
        The API works from this browser; see the warning below.
      </Alert>
    );
  return (
    <Alert
      color="green"
      icon={<IconCircleCheck aria-hidden="true" />}
      title={`All ${checks.length} checks passed`}
    >
      This browser reaches the API and the server understands it.
    </Alert>
  );
}

/**
 * /test/api (blank layout, public): checks the API from this browser and shows each check as
 * passed, warned or failed with what was sent and seen. Its routes answer nothing private.
 */
export function ApiTestPage() {
  const checks = useMutation({ mutationFn: () => runApiChecks() });
  const { mutate } = checks;
  useEffect(() => mutate(), [mutate]);

  return (
    <Stack gap="md">
      <Stack gap={4}>
        <Title order={1} fz={{ base: 24, sm: 28 }}>
          API test page
        </Title>
        <Text size="sm" c="dimmed">
          Checks this browser&apos;s connection to the Latchkey API: that it answers, that it sees the
          app&apos;s version header, that sealed requests (signing in) open on the server, and that the clocks
          agree.
        </Text>
      </Stack>
      <div aria-live="polite">
        {checks.isPending || checks.isIdle ? (
          <Group gap="xs" role="status" aria-label="Running the checks">
            <Loader size="sm" aria-hidden="true" />
            <Text size="sm">Running the checks…</Text>
          </Group>
        ) : checks.data ? (
          <Summary checks={checks.data} />
        ) : (
          <Alert color="red" title="The checks could not run">
            Reload the page to try again.
          </Alert>
        )}
      </div>
      {checks.data?.map((check) => (
        <CheckCard key={check.id} check={check} />
      ))}
      <Group>
        <Button
          variant="default"
          leftSection={<IconRefresh size={16} aria-hidden="true" />}
          onClick={() => mutate()}
          loading={checks.isPending}
        >
          Run the checks again
        </Button>
      </Group>
    </Stack>
  );
}
