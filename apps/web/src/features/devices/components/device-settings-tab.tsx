import { deviceUpdateSchema, type Device, type DeviceUpdate } from '@latchkey/shared';
import {
  ActionIcon,
  Button,
  Code,
  CopyButton,
  Group,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useMemo, type ReactNode } from 'react';
import { DeleteRecordCard } from '@/components/delete-record-card';
import { SectionCard } from '@/components/section-card';
import { paths } from '@/config/paths';
import { formResolver, useFormMutation } from '@/lib/forms';
import { formatDate, timeZones } from '@/lib/format';
import { useDeleteDevice } from '../api/delete-device';
import { deviceKeys } from '../api/query-keys';
import { useUpdateDevice } from '../api/update-device';
import { LockZonePicker } from '@/features/zones/components/lock-zone-picker';
import { modelLabel } from './device-status';

interface SettingsValues {
  name: string;
  timeZone: string;
  lowBatteryLevel: number | string;
}

const LABELS: Record<keyof SettingsValues, string> = {
  name: 'Name',
  timeZone: 'Time zone',
  lowBatteryLevel: 'Low-battery level',
};

const toInput = (values: SettingsValues) => ({
  name: values.name,
  timeZone: values.timeZone,
  lowBatteryLevel: values.lowBatteryLevel === '' ? undefined : Number(values.lowBatteryLevel),
});

const resolve = formResolver<SettingsValues>(deviceUpdateSchema, LABELS, toInput);

function validate(values: SettingsValues) {
  const errors = resolve(values);
  delete errors['']; // "something is required": the form always sends at least one change.
  if (values.lowBatteryLevel === '') errors.lowBatteryLevel = 'Low-battery level is required';
  else if (errors.lowBatteryLevel) errors.lowBatteryLevel = 'Low-battery level must be between 1 and 90%';
  return errors;
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={700} style={{ letterSpacing: '0.04em' }}>
        {label}
      </Text>
      <Text component="div" size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Stack>
  );
}

function SettingsForm({ device }: { device: Device }) {
  const update = useUpdateDevice();
  const zones = useMemo(() => timeZones(device.timeZone), [device.timeZone]);
  const form = useForm<SettingsValues>({
    mode: 'controlled',
    initialValues: { name: device.name, timeZone: device.timeZone, lowBatteryLevel: device.lowBatteryLevel },
    validate,
  });

  const { submit } = useFormMutation(form, {
    run: async (values) => {
      const input = toInput(values);
      const changes: DeviceUpdate = {};
      if (input.name.trim() !== device.name) changes.name = input.name.trim();
      if (input.timeZone !== device.timeZone) changes.timeZone = input.timeZone;
      if (input.lowBatteryLevel !== device.lowBatteryLevel) changes.lowBatteryLevel = input.lowBatteryLevel;
      if (Object.keys(changes).length === 0) return;
      const saved = await update.mutateAsync({ deviceId: device._id, ...changes });
      notifications.show({ color: 'teal', title: 'Lock saved', message: `${saved.name} is up to date.` });
    },
    labels: LABELS,
    otherwise: 'Could not save the lock',
  });

  return (
    <form onSubmit={submit} noValidate aria-label="Lock settings">
      <Stack gap="md">
        <TextInput label={LABELS.name} required maxLength={80} {...form.getInputProps('name')} />
        <Select
          label={LABELS.timeZone}
          description="Where the lock is: its schedules follow this clock."
          data={zones}
          searchable
          limit={50}
          allowDeselect={false}
          nothingFoundMessage="No matching time zone"
          required
          comboboxProps={{ withinPortal: true }}
          {...form.getInputProps('timeZone')}
          onChange={(value) => form.setFieldValue('timeZone', value ?? device.timeZone)}
        />
        <NumberInput
          label={LABELS.lowBatteryLevel}
          description="Below this level the lock is listed as needing new batteries."
          min={1}
          max={90}
          step={5}
          suffix="%"
          allowDecimal={false}
          allowNegative={false}
          clampBehavior="none"
          required
          {...form.getInputProps('lowBatteryLevel')}
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
  );
}

/** The Settings tab: the lock's facts, its settings form and the danger zone (delete). */
export function DeviceSettingsTab({ device }: { device: Device }) {
  const remove = useDeleteDevice();
  return (
    <Stack gap="lg">
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <SectionCard title="Settings">
          <SettingsForm device={device} />
          <LockZonePicker key={device.zoneId ?? 'none'} device={device} />
        </SectionCard>
        <SectionCard title="About this lock">
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md" verticalSpacing="md">
            <Fact label="Lock ID">
              <Group gap={4} wrap="nowrap">
                <Code>{device._id}</Code>
                <CopyButton value={device._id} timeout={1500}>
                  {({ copied, copy }) => (
                    <Tooltip label={copied ? 'Copied' : 'Copy'}>
                      <ActionIcon variant="subtle" size="sm" onClick={copy} aria-label="Copy lock ID">
                        {copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
                      </ActionIcon>
                    </Tooltip>
                  )}
                </CopyButton>
              </Group>
            </Fact>
            <Fact label="Model">{modelLabel(device.model)}</Fact>
            <Fact label="Serial number">{device.serial ?? '—'}</Fact>
            <Fact label="Added">{formatDate(device.createdAt, device.timeZone)}</Fact>
          </SimpleGrid>
        </SectionCard>
      </SimpleGrid>
      <DeleteRecordCard
        noun="lock"
        name={device.name}
        description="Deleting removes everyone's access to this lock; its history is kept."
        consequence="This removes everyone's access to this lock; its history is kept."
        remove={() => remove.mutateAsync(device._id)}
        pending={remove.isPending}
        listHref={paths.app.devices.href()}
        detailKey={deviceKeys.detail(device._id)}
      />
    </Stack>
  );
}
