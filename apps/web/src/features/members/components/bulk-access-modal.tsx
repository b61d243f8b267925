import { Alert, Button, Group, Modal, Radio, Select, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useLockOptions } from '@/features/devices/api/get-devices';
import { useGroupOptions } from '@/features/groups/api/get-groups';
import { errorMessage } from '@/lib/errors';
import { useChangeAccessOfMany } from '../api/change-access-of-many';

export type BulkChange = 'grant' | 'revoke';

interface BulkAccessModalProps {
  /** Which change the dialog makes; null: closed. */
  change: BulkChange | null;
  userIds: readonly string[];
  onClose: () => void;
  /** After the change was made, for every person chosen. */
  onDone: () => void;
}

/**
 * "Give access" / "Remove access" for the people chosen on the list: one lock (direct access) or one
 * group, for all of them in one request. The server does all or nothing, so the dialog says either
 * what was done for everyone or that nothing changed.
 */
export function BulkAccessModal({ change, userIds, onClose, onDone }: BulkAccessModalProps) {
  const [kind, setKind] = useState<'lock' | 'group'>('lock');
  const [targetId, setTargetId] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const locks = useLockOptions();
  const groups = useGroupOptions(change !== null);
  const mutation = useChangeAccessOfMany();
  const grant = change === 'grant';
  const people = `${userIds.length} ${userIds.length === 1 ? 'person' : 'people'}`;

  const options =
    kind === 'lock'
      ? (locks.data?.items ?? []).map((lock) => ({ value: lock._id, label: lock.name }))
      : (groups.data?.items ?? []).map((group) => ({ value: group._id, label: group.name }));
  const targetName = options.find((option) => option.value === targetId)?.label ?? '';

  const close = () => {
    setTargetId(null);
    setFailure(null);
    onClose();
  };

  const submit = async () => {
    if (!change || !targetId) return;
    setFailure(null);
    try {
      const result = await mutation.mutateAsync({
        userIds: [...userIds],
        target: { kind, id: targetId },
        change,
      });
      const unchanged = result.people - result.changed;
      notifications.show({
        color: 'teal',
        title: grant ? `${targetName}: access given` : `${targetName}: access removed`,
        message:
          `${result.changed} of ${result.people} changed` +
          (unchanged > 0 ? ` (${unchanged} already ${grant ? 'had' : 'lacked'} it)` : '') +
          `; ${result.lockIds.length === 1 ? 'the lock gets' : `${result.lockIds.length} locks get`} the new credentials.`,
      });
      setTargetId(null);
      onDone();
    } catch (error) {
      setFailure(errorMessage(error));
    }
  };

  return (
    <Modal
      opened={change !== null}
      onClose={close}
      closeButtonProps={{ 'aria-label': 'Close' }}
      title={grant ? `Give ${people} access` : `Remove access from ${people}`}
    >
      <Stack gap="md">
        <Radio.Group
          label={grant ? 'Give them' : 'Take away'}
          value={kind}
          onChange={(value) => {
            setKind(value as 'lock' | 'group');
            setTargetId(null);
          }}
        >
          <Group mt="xs">
            <Radio value="lock" label="A lock (direct access)" />
            <Radio value="group" label={grant ? 'A group (they join it)' : 'A group (they leave it)'} />
          </Group>
        </Radio.Group>
        <Select
          label={kind === 'lock' ? 'Lock' : 'Group'}
          placeholder={kind === 'lock' ? 'Choose a lock' : 'Choose a group'}
          data={options}
          value={targetId}
          onChange={setTargetId}
          searchable
          nothingFoundMessage={kind === 'lock' ? 'No lock has that name' : 'No group has that name'}
        />
        {!grant && kind === 'lock' && (
          <Text size="sm" c="dimmed">
            Access they have through a group stays; remove them from the group for that.
          </Text>
        )}
        {failure && (
          <Alert color="red" title="Nothing was changed">
            {failure}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            Cancel
          </Button>
          <Button
            color={grant ? undefined : 'red'}
            disabled={!targetId}
            loading={mutation.isPending}
            onClick={() => void submit()}
          >
            {grant ? `Give access to ${people}` : `Remove access from ${people}`}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
