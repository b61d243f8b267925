import { WEBHOOK_EVENT_TYPES, type WebhookEndpoint, type WebhookSecret } from '@latchkey/shared';
import { Accordion, Badge, Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlus, IconWebhook } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { EmptyList } from '@/components/empty-list';
import { PageHeader } from '@/components/page-header';
import { QueryError } from '@/components/query-error';
import { SectionCard } from '@/components/section-card';
import { TableSkeleton } from '@/components/table-skeleton';
import { errorMessage } from '@/lib/errors';
import { formatDateTime } from '@/lib/format';
import { useDeleteWebhook } from '../api/delete-webhook';
import { useRevealWebhookSecret } from '../api/get-webhook-secret';
import { useWebhooks } from '../api/get-webhooks';
import { useRotateWebhookSecret } from '../api/rotate-webhook-secret';
import { useSendWebhookTest } from '../api/send-webhook-test';
import { useUpdateWebhook } from '../api/update-webhook';
import { DeliveryLog } from './delivery-log';
import { WebhookEndpointForm } from './webhook-endpoint-form';

function failure(title: string) {
  return (error: unknown) => notifications.show({ color: 'red', title, message: errorMessage(error) });
}

/** One endpoint: its state, secret, test event, edit/delete, and its delivery log. */
function EndpointCard({ endpoint, onEdit }: { endpoint: WebhookEndpoint; onEdit: () => void }) {
  const reveal = useRevealWebhookSecret();
  const rotate = useRotateWebhookSecret();
  const test = useSendWebhookTest();
  const update = useUpdateWebhook();
  const remove = useDeleteWebhook();
  const [secret, setSecret] = useState<WebhookSecret | null>(null);
  const [confirm, setConfirm] = useState<'rotate' | 'delete' | null>(null);
  const [showLog, setShowLog] = useState(false);
  const events = endpoint.eventTypes === null ? 'All events' : endpoint.eventTypes.join(', ');

  return (
    <SectionCard
      title={<span style={{ wordBreak: 'break-all' }}>{endpoint.url}</span>}
      description={endpoint.description || undefined}
      aside={
        endpoint.enabled ? (
          <Badge color="teal" variant="light">
            Enabled
          </Badge>
        ) : (
          <Badge color="red" variant="light">
            {endpoint.disabledReason === 'failing' ? 'Disabled: failing for 5 days' : 'Disabled'}
          </Badge>
        )
      }
    >
      <Stack gap="sm">
        <Text size="sm">
          <b>Events:</b> {events}
        </Text>
        <Text size="sm">
          <b>Last attempt:</b>{' '}
          {endpoint.lastAttempt
            ? `${formatDateTime(endpoint.lastAttempt.at)} · ${endpoint.lastAttempt.ok ? 'delivered' : 'failed'}${endpoint.lastAttempt.statusCode === null ? ' (no answer)' : ` (HTTP ${endpoint.lastAttempt.statusCode})`}`
            : 'none yet'}
        </Text>
        {secret && (
          <Stack gap={4}>
            <Text size="sm" fw={600}>
              Signing secret
            </Text>
            <Group gap="xs" wrap="nowrap">
              <Code style={{ wordBreak: 'break-all' }} data-testid="webhook-secret">
                {secret.secret}
              </Code>
              <CopyButton value={secret.secret}>
                {({ copied, copy }) => (
                  <Button size="compact-sm" variant="default" onClick={copy}>
                    {copied ? 'Copied' : 'Copy'}
                  </Button>
                )}
              </CopyButton>
            </Group>
            {secret.previousSecretUntil && (
              <Text size="xs">
                The previous secret also signs until {formatDateTime(secret.previousSecretUntil)}.
              </Text>
            )}
          </Stack>
        )}
        <Group gap="xs">
          <Button
            size="compact-sm"
            variant="light"
            disabled={!endpoint.enabled}
            loading={test.isPending}
            onClick={() =>
              test.mutate(endpoint._id, {
                onSuccess: () => {
                  setShowLog(true);
                  notifications.show({ color: 'teal', title: 'Test event sent', message: endpoint.url });
                },
                onError: failure('Could not send the test event'),
              })
            }
          >
            Send test event
          </Button>
          <Button
            size="compact-sm"
            variant="default"
            aria-expanded={showLog}
            onClick={() => setShowLog((shown) => !shown)}
          >
            {showLog ? 'Hide delivery log' : 'Delivery log'}
          </Button>
          <Button
            size="compact-sm"
            variant="default"
            loading={reveal.isPending}
            onClick={() =>
              secret
                ? setSecret(null)
                : reveal.mutate(endpoint._id, {
                    onSuccess: setSecret,
                    onError: failure('Could not show the secret'),
                  })
            }
          >
            {secret ? 'Hide secret' : 'Show secret'}
          </Button>
          <Button size="compact-sm" variant="default" onClick={() => setConfirm('rotate')}>
            Rotate secret
          </Button>
          <Button size="compact-sm" variant="default" onClick={onEdit}>
            Edit
          </Button>
          <Button
            size="compact-sm"
            variant="default"
            loading={update.isPending}
            onClick={() =>
              update.mutate(
                { id: endpoint._id, patch: { enabled: !endpoint.enabled } },
                { onError: failure('Could not change the endpoint') },
              )
            }
          >
            {endpoint.enabled ? 'Disable' : 'Enable'}
          </Button>
          <Button size="compact-sm" variant="light" color="red" onClick={() => setConfirm('delete')}>
            Delete
          </Button>
        </Group>
        {showLog && <DeliveryLog endpointId={endpoint._id} disabled={!endpoint.enabled} />}
      </Stack>
      <ConfirmDialog
        opened={confirm === 'rotate'}
        onClose={() => setConfirm(null)}
        title="Rotate the signing secret?"
        confirmLabel="Rotate"
        color="orange"
        loading={rotate.isPending}
        onConfirm={() =>
          rotate.mutate(endpoint._id, {
            onSuccess: (next) => {
              setSecret(next);
              setConfirm(null);
            },
            onError: failure('Could not rotate the secret'),
          })
        }
      >
        A new secret signs from now on. For 24 hours every request also carries a signature with the current
        one, so your receiver keeps working while you change its configuration.
      </ConfirmDialog>
      <ConfirmDialog
        opened={confirm === 'delete'}
        onClose={() => setConfirm(null)}
        title="Delete this endpoint?"
        confirmLabel="Delete"
        loading={remove.isPending}
        onConfirm={() =>
          remove.mutate(endpoint._id, {
            onSuccess: () => setConfirm(null),
            onError: failure('Could not delete the endpoint'),
          })
        }
      >
        {endpoint.url} receives nothing more, and its delivery log is deleted.
      </ConfirmDialog>
    </SectionCard>
  );
}

/** The events a webhook carries, each with its description and an example of its `data`. */
function EventTypes() {
  return (
    <SectionCard title="Event types">
      <Text size="sm" mb="sm">
        Each request is a POST of <Code>{'{ type, timestamp, data }'}</Code> with the Standard Webhooks
        headers <Code>webhook-id</Code> (the same on every retry), <Code>webhook-timestamp</Code> and{' '}
        <Code>webhook-signature</Code> (<Code>v1,</Code> + base64 HMAC-SHA256 of id.timestamp.body with the
        secret after <Code>whsec_</Code>). Failed deliveries are retried at once, after 5 s, 5 min, 30 min, 2
        h, 5 h, 10 h and 10 h; an endpoint failing for 5 days is disabled.
      </Text>
      <Accordion variant="separated">
        {WEBHOOK_EVENT_TYPES.map((event) => (
          <Accordion.Item key={event.type} value={event.type}>
            <Accordion.Control>
              <Text size="sm" fw={600}>
                {event.type}
              </Text>
              <Text size="xs">{event.description}</Text>
            </Accordion.Control>
            <Accordion.Panel>
              <Code block>{JSON.stringify(event.example, null, 2)}</Code>
            </Accordion.Panel>
          </Accordion.Item>
        ))}
      </Accordion>
    </SectionCard>
  );
}

/** /app/settings/webhooks (admins): the portal's webhook endpoints and their delivery logs. */
export function WebhooksPage() {
  const endpoints = useWebhooks();
  const [editing, setEditing] = useState<WebhookEndpoint | 'new' | null>(null);

  let list;
  if (endpoints.isPending) list = <TableSkeleton rows={2} label="Loading the webhook endpoints" />;
  else if (endpoints.error)
    list = (
      <QueryError
        title="Could not load the webhook endpoints"
        error={endpoints.error}
        onRetry={() => void endpoints.refetch()}
      />
    );
  else if (endpoints.data.items.length === 0)
    list = (
      <EmptyList
        icon={<IconWebhook size={28} aria-hidden="true" />}
        title="No endpoint yet"
        description="Add your system’s address to receive lock events, credentials confirmed or refused by a lock, stays and payments as they happen, signed."
      />
    );
  else
    list = endpoints.data.items.map((endpoint) => (
      <EndpointCard key={endpoint._id} endpoint={endpoint} onEdit={() => setEditing(endpoint)} />
    ));

  return (
    <Stack gap="lg" maw={960}>
      <PageHeader
        title="Webhooks"
        description="Send what happens at your locks to your own systems (PMS, ERP, scripts), signed and retried"
        aside={
          <Button leftSection={<IconPlus size={16} aria-hidden="true" />} onClick={() => setEditing('new')}>
            Add endpoint
          </Button>
        }
      />
      {list}
      <EventTypes />
      {editing && (
        <WebhookEndpointForm
          key={editing === 'new' ? 'new' : editing._id}
          endpoint={editing === 'new' ? null : editing}
          opened
          onClose={() => setEditing(null)}
        />
      )}
    </Stack>
  );
}
