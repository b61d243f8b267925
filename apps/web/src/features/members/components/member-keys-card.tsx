import type { Key, PortalMember } from '@latchkey/shared';
import { Anchor, Badge, Divider, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconKey } from '@tabler/icons-react';
import { Fragment } from 'react';
import { Link } from 'react-router';
import { AddPicker } from '@/components/add-picker';
import { KeyTypeBadge } from '@/components/key-type-badge';
import { QueryError } from '@/components/query-error';
import { SectionCard } from '@/components/section-card';
import { TableSkeleton } from '@/components/table-skeleton';
import { ValidityBadge } from '@/components/validity-badge';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/errors';
import { displayName } from '@/lib/session';
import { validityState } from '@/lib/validity';
import { useMemberKeys } from '../api/get-member-keys';
import { useKeyOptions } from '@/features/keys/api/get-keys';
import { useHandOverKey } from '@/features/keys/api/hand-over-key';

const keyOptionLabel = (key: Key) => (key.number ? `${key.name} (No. ${key.number})` : key.name);
const lockCount = (count: number) => (count === 1 ? '1 lock' : `${count} locks`);

function KeyRow({ keyRecord: key }: { keyRecord: Key }) {
  return (
    <Stack gap={4} py="sm">
      <Group gap="xs" wrap="wrap">
        <Anchor
          component={Link}
          to={paths.app.key.href(key._id)}
          fw={600}
          size="sm"
          style={{ overflowWrap: 'anywhere' }}
        >
          {key.name}
        </Anchor>
        <KeyTypeBadge type={key.type} size="sm" />
        {validityState(key) !== 'active' && (
          <ValidityBadge validFrom={key.validFrom} validUntil={key.validUntil} size="sm" />
        )}
      </Group>
      <Text size="xs" c="dimmed">
        {key.number ? `No. ${key.number} · ` : ''}
        {lockCount(key.devices.length)}
      </Text>
    </Stack>
  );
}

/** The keys a person holds, and "Hand over a key" from the keys nobody holds. */
export function MemberKeysCard({ member }: { member: PortalMember }) {
  const keys = useMemberKeys(member._id);
  const keyOptions = useKeyOptions();
  const handOver = useHandOverKey();
  const name = displayName(member);

  const options = (keyOptions.data?.items ?? [])
    .filter((key) => key.holder === null)
    .map((key) => ({ value: key._id, label: keyOptionLabel(key) }));

  const give = async (keyId: string) => {
    try {
      const key = await handOver.mutateAsync({ keyId, userId: member._id });
      notifications.show({
        color: 'teal',
        title: 'Key handed over',
        message: `${name} now holds ${key.name}.`,
      });
    } catch (error) {
      notifications.show({
        color: 'red',
        title: 'Could not hand over the key',
        message: errorMessage(error),
      });
      throw error;
    }
  };

  let body;
  if (keys.isPending) body = <TableSkeleton rows={2} label="Loading keys" />;
  else if (keys.error) {
    body = (
      <QueryError title="Could not load the keys" error={keys.error} onRetry={() => void keys.refetch()} />
    );
  } else if (keys.data.length === 0) {
    body = (
      <Stack align="center" gap={6} py="md" ta="center">
        <IconKey size={32} stroke={1.4} aria-hidden="true" color="var(--mantine-color-dimmed)" />
        <Text fw={600}>No keys</Text>
        <Text size="sm" c="dimmed">
          {name} holds no key of this portal.
        </Text>
      </Stack>
    );
  } else {
    body = (
      <Stack gap={0} component="ul" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Their keys">
        {keys.data.map((key, index) => (
          <Fragment key={key._id}>
            {index > 0 && <Divider component="li" aria-hidden="true" />}
            <li>
              <KeyRow keyRecord={key} />
            </li>
          </Fragment>
        ))}
      </Stack>
    );
  }

  return (
    <SectionCard
      title="Keys"
      description="Physical and digital keys they hold."
      aside={
        keys.data && (
          <Badge variant="light" size="lg">
            {keys.data.length}
          </Badge>
        )
      }
      h="100%"
    >
      <Stack gap="md">
        <AddPicker
          label="Hand over a key"
          placeholder="Search the keys nobody holds"
          options={options}
          actionLabel="Hand over"
          loading={keyOptions.isPending}
          nothingFound="No free key matches"
          emptyText={
            keyOptions.error ? (
              <Text size="sm" c="red">
                Could not load the keys to hand over: {errorMessage(keyOptions.error)}
              </Text>
            ) : (
              <Text size="sm" c="dimmed">
                Every key has a holder. Add one on the{' '}
                <Anchor component={Link} to={paths.app.keys.href()} size="sm">
                  Keys
                </Anchor>{' '}
                page.
              </Text>
            )
          }
          onAdd={give}
        />
        <Divider />
        {body}
      </Stack>
    </SectionCard>
  );
}
