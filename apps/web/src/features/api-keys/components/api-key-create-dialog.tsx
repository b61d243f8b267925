import {
  API_KEY_AREAS,
  READ_ONLY_API_KEY_AREAS,
  type ApiKeyArea,
  type ApiKeyCreated,
  type ApiKeyScope,
} from '@latchkey/shared';
import {
  Alert,
  Button,
  Code,
  CopyButton,
  Group,
  Modal,
  SegmentedControl,
  Select,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useState } from 'react';
import { isApiError } from '@/lib/api-client';
import { errorMessage } from '@/lib/errors';
import { useCreateApiKey } from '../api/create-api-key';

type Level = 'none' | 'read' | 'write';

const AREA_LABELS: Record<ApiKeyArea, string> = {
  devices: 'Locks',
  people: 'People',
  groups: 'Groups',
  credentials: 'Cards, codes, keys',
  lockouts: 'Lockouts',
  events: 'Events and change log',
  rentals: 'Rentals',
  zones: 'Zones',
  readers: 'Desk readers',
  webhooks: 'Webhooks',
  reports: 'Reports',
  billing: 'Billing',
};

const EXPIRIES = [
  { value: 'never', label: 'Never' },
  { value: '30', label: 'In 30 days' },
  { value: '90', label: 'In 90 days' },
  { value: '365', label: 'In 1 year' },
  { value: '730', label: 'In 2 years' },
];

/** The secret of a new key, shown this once with a copy button. */
function CreatedKey({ created, onClose }: { created: ApiKeyCreated; onClose: () => void }) {
  return (
    <Stack>
      <Alert
        color="orange"
        icon={<IconAlertTriangle size={18} aria-hidden="true" />}
        title="Copy the key now"
      >
        This is the only time the key is shown. Store it in your system’s secret store; if it is lost, revoke
        it and create another.
      </Alert>
      <Group gap="xs" wrap="nowrap">
        <Code style={{ wordBreak: 'break-all' }} data-testid="api-key-secret">
          {created.secret}
        </Code>
        <CopyButton value={created.secret}>
          {({ copied, copy }) => (
            <Button size="compact-sm" variant="default" onClick={copy}>
              {copied ? 'Copied' : 'Copy'}
            </Button>
          )}
        </CopyButton>
      </Group>
      <Group justify="flex-end">
        <Button onClick={onClose}>Done</Button>
      </Group>
    </Stack>
  );
}

/** Create a key: its name, a level per area (none, read, write), an expiry and allowed addresses. */
export function ApiKeyCreateDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const create = useCreateApiKey();
  const [name, setName] = useState('');
  const [levels, setLevels] = useState<Record<string, Level>>({});
  const [expiry, setExpiry] = useState('365');
  const [addresses, setAddresses] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [created, setCreated] = useState<ApiKeyCreated | null>(null);

  const save = () => {
    const scopes = API_KEY_AREAS.flatMap((area) =>
      levels[area] && levels[area] !== 'none' ? [`${area}:${levels[area]}` as ApiKeyScope] : [],
    );
    const next: Record<string, string> = {};
    if (!name.trim()) next.name = 'Name the key (what uses it)';
    if (scopes.length === 0) next.scopes = 'Give the key read or write access to at least one area';
    setErrors(next);
    if (Object.keys(next).length > 0) return;
    create.mutate(
      {
        name: name.trim(),
        scopes,
        expiresAt:
          expiry === 'never' ? null : new Date(Date.now() + Number(expiry) * 86_400_000).toISOString(),
        allowedAddresses: addresses
          .split(/[\s,]+/)
          .map((line) => line.trim())
          .filter(Boolean),
      },
      {
        onSuccess: setCreated,
        onError: (error) => {
          const details = isApiError(error) ? (error.details ?? []) : [];
          if (details.length > 0) {
            setErrors(
              Object.fromEntries(
                details.map((d) => [
                  d.path.split('.')[0] === 'allowedAddresses' ? 'addresses' : d.path.split('.')[0]!,
                  d.message,
                ]),
              ),
            );
          } else
            notifications.show({
              color: 'red',
              title: 'Could not create the key',
              message: errorMessage(error),
            });
        },
      },
    );
  };

  return (
    <Modal
      opened={opened}
      onClose={create.isPending ? () => {} : onClose}
      title={created ? `API key '${created.key.name}' created` : 'Create an API key'}
      size="lg"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {created ? (
        <CreatedKey created={created} onClose={onClose} />
      ) : (
        <Stack>
          <TextInput
            label="Name"
            description="What uses the key, as the change log will name it"
            placeholder="PMS sync"
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            error={errors.name}
            maxLength={80}
            data-autofocus
          />
          <Stack gap={6} role="group" aria-labelledby="api-key-scopes-label">
            <Text size="sm" fw={500} id="api-key-scopes-label">
              Access
            </Text>
            <Text size="xs">Write includes read. A key never manages keys or acts in another portal.</Text>
            {API_KEY_AREAS.map((area) => {
              const options = READ_ONLY_API_KEY_AREAS.includes(area)
                ? ['none', 'read']
                : ['none', 'read', 'write'];
              return (
                <Group key={area} justify="space-between" wrap="nowrap">
                  <Text size="sm" id={`api-key-area-${area}`}>
                    {AREA_LABELS[area]}
                  </Text>
                  <SegmentedControl
                    size="xs"
                    aria-labelledby={`api-key-area-${area}`}
                    value={levels[area] ?? 'none'}
                    onChange={(value) => setLevels((current) => ({ ...current, [area]: value as Level }))}
                    data={options.map((value) => ({
                      value,
                      label: value === 'none' ? 'None' : value === 'read' ? 'Read' : 'Write',
                    }))}
                  />
                </Group>
              );
            })}
            {errors.scopes && (
              <Text size="sm" c="red" role="alert">
                {errors.scopes}
              </Text>
            )}
          </Stack>
          <Select
            label="Expires"
            data={EXPIRIES}
            value={expiry}
            onChange={(value) => setExpiry(value ?? 'never')}
            allowDeselect={false}
            error={errors.expiresAt}
          />
          <Textarea
            label="Allowed addresses"
            description="IP addresses or ranges (10.0.0.0/8), one per line; empty: any address"
            value={addresses}
            onChange={(event) => setAddresses(event.currentTarget.value)}
            error={errors.addresses}
            autosize
            minRows={2}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={create.isPending}>
              Cancel
            </Button>
            <Button onClick={save} loading={create.isPending}>
              Create key
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
