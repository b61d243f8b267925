import type { ApiKeyRecord } from '@latchkey/shared';
import { Badge, Button, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconKey, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { EmptyList } from '@/components/empty-list';
import { PageHeader } from '@/components/page-header';
import { QueryError } from '@/components/query-error';
import { SectionCard } from '@/components/section-card';
import { TableSkeleton } from '@/components/table-skeleton';
import { errorMessage } from '@/lib/errors';
import { formatDateTime } from '@/lib/format';
import { useApiKeys } from '../api/get-api-keys';
import { useRevokeApiKey } from '../api/revoke-api-key';
import { ApiKeyCreateDialog } from './api-key-create-dialog';

function state(key: ApiKeyRecord) {
  if (key.revokedAt)
    return (
      <Badge color="gray" variant="light">
        Revoked
      </Badge>
    );
  if (key.expiresAt && new Date(key.expiresAt).getTime() <= Date.now())
    return (
      <Badge color="orange" variant="light">
        Expired
      </Badge>
    );
  return (
    <Badge color="teal" variant="light">
      Active
    </Badge>
  );
}

/** The keys as a table: name, prefix, scopes, who made it and when, expiry, last use, state, revoke. */
function KeysTable({ keys, onRevoke }: { keys: ApiKeyRecord[]; onRevoke: (key: ApiKeyRecord) => void }) {
  return (
    <Table.ScrollContainer minWidth={900} type="native" tabIndex={0} aria-label="API keys">
      <Table striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>Key</Table.Th>
            <Table.Th>Access</Table.Th>
            <Table.Th>Created</Table.Th>
            <Table.Th>Expires</Table.Th>
            <Table.Th>Last used</Table.Th>
            <Table.Th>State</Table.Th>
            <Table.Th>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {keys.map((key) => (
            <Table.Tr key={key._id}>
              <Table.Td>{key.name}</Table.Td>
              <Table.Td>
                <Text size="sm" ff="monospace">
                  {key.prefix}…
                </Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{key.scopes.join(', ')}</Text>
                {key.allowedAddresses.length > 0 && (
                  <Text size="xs">From {key.allowedAddresses.join(', ')}</Text>
                )}
              </Table.Td>
              <Table.Td>
                <Text size="sm">{formatDateTime(key.createdAt)}</Text>
                {key.createdBy && <Text size="xs">by {key.createdBy.name}</Text>}
              </Table.Td>
              <Table.Td>{key.expiresAt ? formatDateTime(key.expiresAt) : 'Never'}</Table.Td>
              <Table.Td>
                {key.lastUsedAt ? (
                  <>
                    <Text size="sm">{formatDateTime(key.lastUsedAt)}</Text>
                    <Text size="xs">from {key.lastUsedIp}</Text>
                  </>
                ) : (
                  'Never'
                )}
              </Table.Td>
              <Table.Td>{state(key)}</Table.Td>
              <Table.Td>
                {!key.revokedAt && (
                  <Button
                    size="compact-sm"
                    variant="light"
                    color="red"
                    onClick={() => onRevoke(key)}
                    aria-label={`Revoke ${key.name}`}
                  >
                    Revoke
                  </Button>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** /app/settings/api-keys (admins): the portal's API keys, a new key (its secret shown once), revoke. */
export function ApiKeysPage() {
  const keys = useApiKeys();
  const revoke = useRevokeApiKey();
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<ApiKeyRecord | null>(null);

  let list;
  if (keys.isPending) list = <TableSkeleton rows={2} label="Loading the API keys" />;
  else if (keys.error)
    list = (
      <QueryError
        title="Could not load the API keys"
        error={keys.error}
        onRetry={() => void keys.refetch()}
      />
    );
  else if (keys.data.keys.length === 0)
    list = (
      <EmptyList
        icon={<IconKey size={28} aria-hidden="true" />}
        title="No API key yet"
        description="Create a key for your PMS, ERP or scripts: it works in this portal only, with the access you give it."
      />
    );
  else
    list = (
      <SectionCard title="Keys">
        <KeysTable keys={keys.data.keys} onRevoke={setRevoking} />
      </SectionCard>
    );

  return (
    <Stack gap="lg" maw={1200}>
      <PageHeader
        title="API keys"
        description="Keys for your own systems: send one as Authorization: Bearer lk_live_… (see the API documentation)"
        aside={
          <Button leftSection={<IconPlus size={16} aria-hidden="true" />} onClick={() => setCreating(true)}>
            Create key
          </Button>
        }
      />
      {list}
      {creating && <ApiKeyCreateDialog opened onClose={() => setCreating(false)} />}
      <ConfirmDialog
        opened={revoking !== null}
        onClose={() => setRevoking(null)}
        title={`Revoke '${revoking?.name ?? ''}'?`}
        confirmLabel="Revoke"
        loading={revoke.isPending}
        onConfirm={() =>
          revoking &&
          revoke.mutate(revoking._id, {
            onSuccess: () => {
              notifications.show({ color: 'teal', title: 'Key revoked', message: revoking.name });
              setRevoking(null);
            },
            onError: (error) =>
              notifications.show({
                color: 'red',
                title: 'Could not revoke the key',
                message: errorMessage(error),
              }),
          })
        }
      >
        Every request made with this key is refused from now on, on every server. This cannot be undone.
      </ConfirmDialog>
    </Stack>
  );
}
