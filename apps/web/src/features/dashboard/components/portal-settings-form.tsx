import { portalDataSchema, type Portal, type PortalData } from '@latchkey/shared';
import { Button, Group, Paper, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMemo } from 'react';
import { formResolver, useFormMutation } from '@/lib/forms';
import { timeZones } from '@/lib/format';
import { useUpdatePortalData } from '../api/update-portal-data';

interface SettingsValues {
  name: string;
  timeZone: string;
}

const LABELS: Record<keyof SettingsValues, string> = { name: 'Portal name', timeZone: 'Time zone' };

/** Rename the portal or change its time zone (POST portal/data). Only changed fields are sent. */
export function PortalSettingsForm({ portal }: { portal: Portal }) {
  const update = useUpdatePortalData();
  const zones = useMemo(() => timeZones(portal.timeZone), [portal.timeZone]);
  const form = useForm<SettingsValues>({
    mode: 'controlled',
    initialValues: { name: portal.name, timeZone: portal.timeZone },
    validate: formResolver(portalDataSchema, LABELS),
  });

  const { submit } = useFormMutation(form, {
    run: async (values) => {
      const changes: PortalData = {};
      if (values.name.trim() !== portal.name) changes.name = values.name.trim();
      if (values.timeZone !== portal.timeZone) changes.timeZone = values.timeZone;
      if (Object.keys(changes).length === 0) return;
      const saved = await update.mutateAsync(changes);
      form.setValues({ name: saved.name, timeZone: saved.timeZone });
      form.resetDirty({ name: saved.name, timeZone: saved.timeZone });
      notifications.show({ color: 'teal', title: 'Portal saved', message: `${saved.name} is up to date.` });
    },
    labels: LABELS,
    otherwise: 'Could not save the portal',
  });

  return (
    <Paper
      withBorder
      radius="lg"
      p={{ base: 'md', sm: 'lg' }}
      component="section"
      aria-labelledby="portal-settings"
    >
      <Stack gap={4} mb="md">
        <Title order={2} fz="lg" id="portal-settings">
          Portal settings
        </Title>
        <Text size="sm" c="dimmed">
          Schedules and reports use the portal&apos;s time zone.
        </Text>
      </Stack>
      <form onSubmit={submit} noValidate aria-label="Portal settings">
        <Stack gap="md">
          <TextInput label={LABELS.name} required maxLength={80} {...form.getInputProps('name')} />
          <Select
            label={LABELS.timeZone}
            data={zones}
            searchable
            limit={50}
            allowDeselect={false}
            nothingFoundMessage="No matching time zone"
            required
            {...form.getInputProps('timeZone')}
            onChange={(value) => form.setFieldValue('timeZone', value ?? portal.timeZone)}
          />
          <Group justify="flex-end" gap="sm">
            <Button
              variant="default"
              onClick={() => form.reset()}
              disabled={!form.isDirty() || update.isPending}
            >
              Cancel
            </Button>
            <Button type="submit" loading={update.isPending} disabled={!form.isDirty()}>
              Save changes
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
