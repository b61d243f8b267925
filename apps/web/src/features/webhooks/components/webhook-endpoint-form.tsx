import { WEBHOOK_EVENT_TYPES, type WebhookEndpoint, type WebhookEventTypeName } from '@latchkey/shared';
import { Button, Checkbox, Group, Modal, Stack, Switch, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { errorMessage } from '@/lib/errors';
import { isApiError } from '@/lib/api-client';
import { useCreateWebhook } from '../api/create-webhook';
import { useUpdateWebhook } from '../api/update-webhook';

/** Add or edit an endpoint: its address, a description, the events it receives, enabled. */
export function WebhookEndpointForm({
  endpoint,
  opened,
  onClose,
}: {
  endpoint: WebhookEndpoint | null;
  opened: boolean;
  onClose: () => void;
}) {
  const create = useCreateWebhook();
  const update = useUpdateWebhook();
  const [url, setUrl] = useState(endpoint?.url ?? '');
  const [description, setDescription] = useState(endpoint?.description ?? '');
  const [allEvents, setAllEvents] = useState(endpoint ? endpoint.eventTypes === null : true);
  const [eventTypes, setEventTypes] = useState<string[]>(endpoint?.eventTypes ?? []);
  const [enabled, setEnabled] = useState(endpoint?.enabled ?? true);
  const [urlError, setUrlError] = useState<string | null>(null);
  const [eventsError, setEventsError] = useState<string | null>(null);
  const saving = create.isPending || update.isPending;

  const save = () => {
    setUrlError(null);
    setEventsError(null);
    if (!/^https?:\/\//i.test(url.trim()))
      return setUrlError('Enter the receiver’s address, starting with https://');
    if (!allEvents && eventTypes.length === 0)
      return setEventsError('Pick at least one event, or all events');
    const body = {
      url: url.trim(),
      description: description.trim(),
      eventTypes: allEvents ? null : (eventTypes as WebhookEventTypeName[]),
      enabled,
    };
    const done = {
      onSuccess: () => {
        notifications.show({
          color: 'teal',
          title: endpoint ? 'Endpoint saved' : 'Endpoint added',
          message: body.url,
        });
        onClose();
      },
      onError: (error: unknown) => {
        const urlProblem = isApiError(error) ? error.details?.find((d) => d.path === 'url') : undefined;
        if (urlProblem) setUrlError(urlProblem.message);
        else
          notifications.show({
            color: 'red',
            title: 'Could not save the endpoint',
            message: errorMessage(error),
          });
      },
    };
    if (endpoint) update.mutate({ id: endpoint._id, patch: body }, done);
    else create.mutate(body, done);
  };

  return (
    <Modal
      opened={opened}
      onClose={saving ? () => {} : onClose}
      title={endpoint ? 'Edit endpoint' : 'Add endpoint'}
      size="lg"
    >
      <Stack>
        <TextInput
          label="Receiver address"
          description="Where each event is POSTed, signed (https://)"
          placeholder="https://pms.example.com/latchkey/webhooks"
          value={url}
          onChange={(e) => setUrl(e.currentTarget.value)}
          error={urlError}
          required
          data-autofocus
        />
        <TextInput
          label="Description"
          placeholder="Our PMS"
          value={description}
          maxLength={200}
          onChange={(e) => setDescription(e.currentTarget.value)}
        />
        <Switch
          label="All events (those added later too)"
          checked={allEvents}
          onChange={(e) => setAllEvents(e.currentTarget.checked)}
        />
        {!allEvents && (
          <Checkbox.Group label="Events" value={eventTypes} onChange={setEventTypes} error={eventsError}>
            <Stack gap={6} mt={6}>
              {WEBHOOK_EVENT_TYPES.filter((e) => e.type !== 'webhook.test').map((event) => (
                <Checkbox
                  key={event.type}
                  value={event.type}
                  label={event.type}
                  description={event.description}
                />
              ))}
            </Stack>
          </Checkbox.Group>
        )}
        <Switch label="Enabled" checked={enabled} onChange={(e) => setEnabled(e.currentTarget.checked)} />
        <Text size="xs">Test events (“Send test event”) reach the endpoint whatever events it takes.</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={saving}>
            Cancel
          </Button>
          <Button onClick={save} loading={saving}>
            {endpoint ? 'Save' : 'Add endpoint'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
