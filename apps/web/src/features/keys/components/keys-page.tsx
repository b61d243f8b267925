import { KEY_TYPES, type Key, type KeyType } from '@latchkey/shared';
import { Anchor, Button, Group, Stack, Table, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconKey, IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { EmptyList, NoMatchList } from '@/components/empty-list';
import { KeyTypeBadge } from '@/components/key-type-badge';
import { ListFilters } from '@/components/list-filters';
import { SortableTh } from '@/components/sortable-th';
import { paths } from '@/config/paths';
import { KEY_TYPE_OPTIONS } from '@/lib/credential-labels';
import { formatDate, formatRelative } from '@/lib/format';
import { useListParams } from '@/lib/use-list-params';
import { useKeys } from '../api/get-keys';
import { lockCount } from './key-text';
import { NewKeyModal } from './new-key-modal';
import { ListPage } from '@/components/list-page';

const SORT_FIELDS = ['name', 'number', 'type', 'createdAt'] as const;
type KeySort = (typeof SORT_FIELDS)[number];

const isKeyType = (value: string): value is KeyType => (KEY_TYPES as readonly string[]).includes(value);

const NO_WRAP = { whiteSpace: 'nowrap' } as const;

function Holder({ holder }: { holder: Key['holder'] }) {
  if (!holder) {
    return (
      <Text size="sm" c="dimmed">
        Nobody
      </Text>
    );
  }
  return (
    <Anchor
      component={Link}
      to={paths.app.member.href(holder._id)}
      size="sm"
      style={{ overflowWrap: 'anywhere' }}
    >
      {holder.name || holder.email}
    </Anchor>
  );
}

function KeyRow({ keyRecord: key }: { keyRecord: Key }) {
  return (
    <Table.Tr>
      <Table.Td>
        <Anchor
          component={Link}
          to={paths.app.key.href(key._id)}
          fw={600}
          size="sm"
          style={{ overflowWrap: 'anywhere' }}
        >
          {key.name}
        </Anchor>
        {/* On phones type, number and holder ride along under the name. */}
        <Stack gap={4} mt={4} hiddenFrom="sm">
          <Group gap={6} wrap="wrap">
            <KeyTypeBadge type={key.type} size="sm" />
            {key.number && (
              <Text size="xs" ff="monospace">
                No. {key.number}
              </Text>
            )}
          </Group>
          <Group gap={4} wrap="wrap">
            <Text size="xs" c="dimmed">
              Held by
            </Text>
            <Holder holder={key.holder} />
          </Group>
        </Stack>
      </Table.Td>
      <Table.Td visibleFrom="sm" style={NO_WRAP}>
        <KeyTypeBadge type={key.type} />
      </Table.Td>
      <Table.Td visibleFrom="sm">
        {key.number ? (
          <Text size="sm" ff="monospace">
            {key.number}
          </Text>
        ) : (
          <Text size="sm" c="dimmed">
            —
          </Text>
        )}
      </Table.Td>
      <Table.Td visibleFrom="sm">
        <Holder holder={key.holder} />
      </Table.Td>
      <Table.Td style={NO_WRAP}>
        <Text size="sm" title={key.devices.map((device) => device.name).join(', ') || undefined}>
          {lockCount(key.devices.length)}
        </Text>
      </Table.Td>
      <Table.Td visibleFrom="md" style={NO_WRAP}>
        <Text size="sm" component="time" dateTime={key.createdAt} title={formatDate(key.createdAt)}>
          {formatRelative(key.createdAt)}
        </Text>
      </Table.Td>
    </Table.Tr>
  );
}

/** /app/keys (admin): the portal's physical and digital keys, who holds them, and "New key". */
export function KeysPage() {
  const list = useListParams<KeySort>({ sortFields: SORT_FIELDS, defaultSort: 'name' });
  const typeParam = list.param('type');
  const type = isKeyType(typeParam) ? typeParam : null;
  const keys = useKeys({ ...list.query, ...(type ? { filterBy: 'type' as const, filterValue: type } : {}) });
  const [creating, { open, close }] = useDisclosure(false);
  const filtered = Boolean(list.search || type);

  const newButton = (
    <Button leftSection={<IconPlus size={18} aria-hidden="true" />} onClick={open}>
      New key
    </Button>
  );

  return (
    <ListPage
      title="Keys"
      description="Physical keys and who holds them; digital keys and the locks they open."
      actions={newButton}
      filters={
        <ListFilters
          list={list}
          searchLabel="Search keys"
          searchPlaceholder="Name or number"
          filter={{
            param: 'type',
            label: 'Type',
            placeholder: 'All types',
            data: KEY_TYPE_OPTIONS,
            value: type,
          }}
        />
      }
      query={keys}
      loadingLabel="Loading keys"
      errorTitle="Could not load the keys"
      filtered={filtered}
      empty={
        <EmptyList
          invite
          icon={<IconKey size={28} aria-hidden="true" />}
          title="No keys yet"
          description="Record the portal's physical keys (who holds which key to which doors) and digital keys (credentials that work only at the locks you link them to)."
          action={newButton}
        />
      }
      noMatch={
        <NoMatchList
          title="No keys match"
          description="Try another name or number, or another type."
          showAll="Show all keys"
          onShowAll={() => list.setParams({ type: null, search: null })}
        />
      }
      list={list}
      noun={['key', 'keys']}
      table={(items) => (
        <>
          <Table.Thead>
            <Table.Tr>
              <SortableTh {...list.sortProps('name')}>Name</SortableTh>
              <SortableTh {...list.sortProps('type')} visibleFrom="sm">
                Type
              </SortableTh>
              <SortableTh {...list.sortProps('number')} visibleFrom="sm">
                Number
              </SortableTh>
              <Table.Th scope="col" visibleFrom="sm">
                Holder
              </Table.Th>
              <Table.Th scope="col">Locks</Table.Th>
              <SortableTh {...list.sortProps('createdAt')} visibleFrom="md">
                Added
              </SortableTh>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((key) => (
              <KeyRow key={key._id} keyRecord={key} />
            ))}
          </Table.Tbody>
        </>
      )}
    >
      <NewKeyModal
        opened={creating}
        onCancel={close}
        onCreated={(key) => {
          close();
          notifications.show({
            color: 'teal',
            title: 'Key created',
            message: key.holder
              ? `${key.name} is recorded as held by ${key.holder.name || key.holder.email}.`
              : `${key.name} is recorded; nobody holds it yet.`,
          });
        }}
      />
    </ListPage>
  );
}
