import type { Device } from '@latchkey/shared';
import { Button, Checkbox, Group, Select, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { errorMessage } from '@/lib/errors';
import { useZones } from '../api/get-zones';
import { useMoveZoneDevices } from '../api/move-zone-devices';

/**
 * A lock's zone on its page (admin): choose a zone (out of its current one) or none, optionally
 * taking the zone's time zone. Shows nothing while the portal has no zones.
 */
export function LockZonePicker({ device }: { device: Device }) {
  const zones = useZones();
  const move = useMoveZoneDevices();
  const current = device.zoneId ?? null;
  const [chosen, setChosen] = useState<string | null>(current);
  const [takeTimeZone, setTakeTimeZone] = useState(true);
  if (!zones.data || zones.data.length === 0) return null;
  const target = zones.data.find((zone) => zone._id === chosen);
  const currentZone = zones.data.find((zone) => zone._id === current);
  const offersTimeZone = target && target.timeZone !== device.timeZone;

  const save = async () => {
    try {
      if (chosen) {
        const moved = await move.mutateAsync({
          zoneId: chosen,
          add: [device._id],
          applyTimeZone: Boolean(offersTimeZone && takeTimeZone),
        });
        notifications.show({
          color: 'teal',
          title: 'Zone saved',
          message: `${device.name} is in ${target?.name ?? 'the zone'}${
            moved.timeZoneChanged ? ` and runs on ${target?.timeZone}` : ''
          }.`,
        });
      } else if (current) {
        await move.mutateAsync({ zoneId: current, remove: [device._id] });
        notifications.show({ color: 'teal', title: 'Zone saved', message: `${device.name} is in no zone.` });
      }
    } catch (error) {
      notifications.show({ color: 'red', title: 'Could not change the zone', message: errorMessage(error) });
    }
  };

  return (
    <Stack gap="xs">
      <Select
        label="Zone"
        description={currentZone ? `Now in ${currentZone.name}.` : 'Now in no zone.'}
        placeholder="No zone"
        data={zones.data.map((zone) => ({
          value: zone._id,
          label: `${'— '.repeat(zone.depth - 1)}${zone.name}`,
        }))}
        value={chosen}
        onChange={setChosen}
        clearable
        comboboxProps={{ withinPortal: true }}
      />
      {offersTimeZone && (
        <Checkbox
          label={`Also set the lock's time zone to ${target.timeZone} (now ${device.timeZone})`}
          checked={takeTimeZone}
          onChange={(event) => setTakeTimeZone(event.currentTarget.checked)}
        />
      )}
      <Group justify="flex-end" gap="sm">
        {chosen !== current && (
          <Text size="xs" c="dimmed">
            Not saved yet
          </Text>
        )}
        <Button
          variant="light"
          onClick={() => void save()}
          disabled={chosen === current}
          loading={move.isPending}
        >
          Save zone
        </Button>
      </Group>
    </Stack>
  );
}
