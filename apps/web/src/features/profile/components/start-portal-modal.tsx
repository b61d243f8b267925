import { ownPortalCreateSchema } from '@latchkey/shared';
import { Button, Group, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMemo } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '@/config/paths';
import { timeZones } from '@/lib/format';
import { formResolver, useFormMutation } from '@/lib/forms';
import { useStartOwnPortal } from '../api/start-own-portal';

interface StartValues {
  name: string;
  timeZone: string;
}

const LABELS: Record<keyof StartValues, string> = { name: 'Portal name', timeZone: 'Time zone' };

/** The browser's own zone, a sensible default for where the person's locks are. */
function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** "Start your own portal": name and time zone; then the person lands on its dashboard as its owner. */
export function StartPortalModal({
  userId,
  opened,
  onClose,
}: {
  userId: string;
  opened: boolean;
  onClose: () => void;
}) {
  const navigate = useNavigate();
  const start = useStartOwnPortal(userId);
  const zones = useMemo(() => timeZones(browserTimeZone()), []);
  const form = useForm<StartValues>({
    mode: 'controlled',
    initialValues: { name: '', timeZone: browserTimeZone() },
    validate: formResolver(ownPortalCreateSchema, LABELS),
  });

  const { submit } = useFormMutation(form, {
    run: async (values) => {
      const portal = await start.mutateAsync({ name: values.name.trim(), timeZone: values.timeZone });
      notifications.show({
        color: 'teal',
        title: 'Portal created',
        message: `${portal.name} is yours to run.`,
      });
      onClose();
      await navigate(paths.app.dashboard.href());
    },
    labels: LABELS,
    otherwise: 'Could not create the portal',
  });

  return (
    <Modal opened={opened} onClose={onClose} title="Start your own portal" centered>
      <form onSubmit={submit} noValidate aria-label="Start your own portal">
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            Run your own locks and people. You keep your place in the portals you belong to.
          </Text>
          <TextInput
            label={LABELS.name}
            required
            maxLength={80}
            data-autofocus
            {...form.getInputProps('name')}
          />
          <Select
            label={LABELS.timeZone}
            data={zones}
            searchable
            limit={50}
            allowDeselect={false}
            nothingFoundMessage="No matching time zone"
            required
            comboboxProps={{ withinPortal: true }}
            {...form.getInputProps('timeZone')}
            onChange={(value) => form.setFieldValue('timeZone', value ?? 'UTC')}
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose} disabled={start.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={start.isPending}>
              Create portal
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
