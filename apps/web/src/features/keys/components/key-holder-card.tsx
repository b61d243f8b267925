import type { Key } from '@latchkey/shared';
import { Anchor, Button, Group, Stack, Text, ThemeIcon } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconArrowBackUp, IconTransfer, IconUser, IconUserOff } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { PersonSelect } from '@/features/people-picker/components/person-select';
import { SectionCard } from '@/components/section-card';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/errors';
import { useHandOverKey, useReturnKey } from '../api/hand-over-key';

/** Who holds the key: hand it over to someone, or record that it came back. */
export function KeyHolderCard({ keyRecord: key }: { keyRecord: Key }) {
  const handOver = useHandOverKey();
  const giveBack = useReturnKey();
  const [userId, setUserId] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const holder = key.holder;

  const submitHandOver = async () => {
    if (!userId) return;
    setError(null);
    try {
      const saved = await handOver.mutateAsync({ keyId: key._id, userId });
      setUserId(null);
      notifications.show({
        color: 'teal',
        title: 'Key handed over',
        message: `${saved.name} is now with ${saved.holder?.name || saved.holder?.email || 'them'}.`,
      });
    } catch (caught) {
      setError(errorMessage(caught));
    }
  };

  const submitReturn = async () => {
    if (!holder) return;
    try {
      await giveBack.mutateAsync({ keyId: key._id, userId: holder._id });
      notifications.show({
        color: 'teal',
        title: 'Key returned',
        message: `${holder.name || holder.email} gave ${key.name} back; nobody holds it now.`,
      });
    } catch (caught) {
      notifications.show({
        color: 'red',
        title: 'Could not record the return',
        message: errorMessage(caught),
      });
    }
  };

  return (
    <SectionCard title="Holder" description="Who has the key now.">
      <Stack gap="md">
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <ThemeIcon variant="light" color={holder ? 'latchkey' : 'gray'} aria-hidden="true">
            {holder ? <IconUser size={18} /> : <IconUserOff size={18} />}
          </ThemeIcon>
          {holder ? (
            <Stack gap={0} style={{ flex: 1, minWidth: 0 }}>
              <Anchor component={Link} to={paths.app.member.href(holder._id)} fw={600} size="sm">
                {holder.name || holder.email}
              </Anchor>
              {holder.name && holder.name !== holder.email && (
                <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                  {holder.email}
                </Text>
              )}
            </Stack>
          ) : (
            <Text size="sm" c="dimmed" style={{ flex: 1 }}>
              Nobody holds it.
            </Text>
          )}
          {holder && (
            <Button
              variant="default"
              size="xs"
              leftSection={<IconArrowBackUp size={16} aria-hidden="true" />}
              loading={giveBack.isPending}
              onClick={() => void submitReturn()}
            >
              Returned
            </Button>
          )}
        </Group>
        <Group gap="sm" align="flex-end" wrap="wrap">
          <PersonSelect
            label="Hand over to…"
            value={userId}
            onChange={(next) => {
              setUserId(next);
              setError(null);
            }}
            exclude={holder ? [holder._id] : []}
            error={error}
            style={{ flex: '1 1 220px', minWidth: 0 }}
          />
          <Button
            onClick={() => void submitHandOver()}
            disabled={!userId}
            loading={handOver.isPending}
            leftSection={<IconTransfer size={16} aria-hidden="true" />}
          >
            Hand over
          </Button>
        </Group>
      </Stack>
    </SectionCard>
  );
}
