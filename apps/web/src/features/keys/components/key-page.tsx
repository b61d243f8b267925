import type { Key } from '@latchkey/shared';
import { Button, Grid, Group, Stack } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconKeyOff } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate, useParams } from 'react-router';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { KeyTypeBadge } from '@/components/key-type-badge';
import { ValidityBadge } from '@/components/validity-badge';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/errors';
import { formatDate } from '@/lib/format';
import { useKey } from '../api/get-key';
import { keyKeys } from '../api/query-keys';
import { useRetireKey } from '../api/retire-key';
import { KeyDetailsCard } from './key-details-card';
import { KeyHistoryCard } from './key-history-card';
import { KeyHolderCard } from './key-holder-card';
import { KeyLocksCard } from './key-locks-card';
import { RecordPage } from '@/components/record-page';

const BACK = { to: paths.app.keys.href(), label: 'All keys' };

function RetireKey({ keyRecord: key }: { keyRecord: Key }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const retire = useRetireKey();
  const [confirming, { open, close }] = useDisclosure(false);

  const confirmRetire = async () => {
    try {
      await retire.mutateAsync(key._id);
      close();
      notifications.show({
        color: 'teal',
        title: 'Key retired',
        message: `${key.name} opens nothing any more.`,
      });
      await navigate(paths.app.keys.href());
      queryClient.removeQueries({ queryKey: keyKeys.detail(key._id) });
    } catch (error) {
      notifications.show({ color: 'red', title: 'Could not retire the key', message: errorMessage(error) });
    }
  };

  return (
    <>
      <Button
        color="red"
        variant="light"
        leftSection={<IconKeyOff size={16} aria-hidden="true" />}
        onClick={open}
      >
        Retire key
      </Button>
      <ConfirmDialog
        opened={confirming}
        onClose={close}
        title={`Retire ${key.name}?`}
        confirmLabel="Retire key"
        loading={retire.isPending}
        onConfirm={() => void confirmRetire()}
      >
        {key.type === 'digital'
          ? 'The key stops opening its locks at once and leaves the list. Its history stays in the change log.'
          : 'Do this when the key is lost or destroyed: it leaves the list, and its history stays in the change log.'}
      </ConfirmDialog>
    </>
  );
}

/** /app/keys/:keyId (admin): a key's details, holder, locks and history; retire it. */
export function KeyPage() {
  const { keyId = '' } = useParams();
  return (
    <RecordPage
      query={useKey(keyId)}
      noun="key"
      back={BACK}
      header={(key) => ({
        title: key.name,
        description: `${key.number ? `No. ${key.number} · ` : ''}Added ${formatDate(key.createdAt)}`,
        aside: <RetireKey keyRecord={key} />,
      })}
    >
      {(key) => (
        <>
          <Group gap={6} wrap="wrap" mt={-8}>
            <KeyTypeBadge type={key.type} size="lg" />
            <ValidityBadge validFrom={key.validFrom} validUntil={key.validUntil} size="lg" />
          </Group>
          <Grid gap="lg">
            <Grid.Col span={{ base: 12, md: 7 }}>
              <KeyDetailsCard
                // Drawn anew when a linked lock moves the key to another clock, too.
                key={`${key._id}:${key.name}:${key.number}:${key.validFrom}:${key.validUntil}:${key.devices.map((d) => d.timeZone).join()}`}
                keyRecord={key}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 5 }}>
              <Stack gap="lg">
                <KeyHolderCard keyRecord={key} />
                <KeyLocksCard keyRecord={key} />
              </Stack>
            </Grid.Col>
          </Grid>
          <KeyHistoryCard keyId={key._id} />
        </>
      )}
    </RecordPage>
  );
}
