import { zoneInputSchema, ZONE_MAX_DEPTH, type Zone } from '@latchkey/shared';
import { Button, Group, Select, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMemo } from 'react';
import { useDirtyForm } from '@/components/form-modal';
import { timeZones } from '@/lib/format';
import { formResolver, useFormMutation } from '@/lib/forms';

export interface ZoneValues {
  name: string;
  description: string;
  timeZone: string;
  parentId: string;
}

export const ZONE_LABELS: Record<keyof ZoneValues, string> = {
  name: 'Name',
  description: 'Description',
  timeZone: 'Time zone',
  parentId: 'Part of',
};

const validate = formResolver<ZoneValues>(zoneInputSchema, ZONE_LABELS, (values) => ({
  ...values,
  parentId: values.parentId || null,
}));

/** The zones a zone may be put under: not itself or below it, and leaving room under the depth limit. */
function parentOptions(zones: Zone[], editing: Zone | undefined) {
  const below = new Set<string>();
  if (editing) {
    below.add(editing._id);
    for (const zone of zones) if (zone.parentId && below.has(zone.parentId)) below.add(zone._id);
  }
  // The edited zone's own sub-zones move with it: its height counts against the limit.
  const height = editing
    ? 1 + Math.max(0, ...zones.filter((z) => below.has(z._id)).map((z) => z.depth - editing.depth))
    : 1;
  return zones
    .filter((zone) => !below.has(zone._id) && zone.depth + height <= ZONE_MAX_DEPTH)
    .map((zone) => ({ value: zone._id, label: `${'— '.repeat(zone.depth - 1)}${zone.name}` }));
}

interface ZoneFormProps {
  zones: Zone[];
  /** The zone being edited; none to create one. */
  zone?: Zone;
  defaultTimeZone: string;
  submitLabel: string;
  onSubmit: (values: {
    name: string;
    description: string;
    timeZone: string;
    parentId: string | null;
  }) => Promise<void>;
  onCancel?: () => void;
  autoFocus?: boolean;
  pending: boolean;
  otherwise: string;
}

/** A zone's name, description, time zone and place in the tree (create and edit). */
export function ZoneForm({
  zones,
  zone,
  defaultTimeZone,
  submitLabel,
  onSubmit,
  onCancel,
  autoFocus = false,
  pending,
  otherwise,
}: ZoneFormProps) {
  const form = useForm<ZoneValues>({
    mode: 'controlled',
    initialValues: {
      name: zone?.name ?? '',
      description: zone?.description ?? '',
      timeZone: zone?.timeZone ?? defaultTimeZone,
      parentId: zone?.parentId ?? '',
    },
    validate,
  });
  useDirtyForm(form.isDirty());
  const allZones = useMemo(() => timeZones(form.values.timeZone), [form.values.timeZone]);
  const parents = useMemo(() => parentOptions(zones, zone), [zones, zone]);
  const { submit } = useFormMutation(form, {
    run: async (values) => onSubmit({ ...values, parentId: values.parentId || null }),
    labels: ZONE_LABELS,
    onStatus: { 409: 'name' },
    otherwise,
  });

  return (
    <form onSubmit={submit} noValidate aria-label={zone ? 'Zone details' : 'New zone'}>
      <Stack gap="md">
        <TextInput
          label={ZONE_LABELS.name}
          placeholder="Building A, 2nd floor…"
          required
          maxLength={80}
          data-autofocus={autoFocus || undefined}
          {...form.getInputProps('name')}
        />
        <Select
          label={ZONE_LABELS.parentId}
          description={`Optional: a floor in a building, a building on a site (${ZONE_MAX_DEPTH} levels at most).`}
          placeholder="Nothing: a top-level zone"
          data={parents}
          clearable
          comboboxProps={{ withinPortal: true }}
          {...form.getInputProps('parentId')}
          onChange={(value) => form.setFieldValue('parentId', value ?? '')}
        />
        <Select
          label={ZONE_LABELS.timeZone}
          description="Offered to locks added to the zone; a lock keeps its own clock until you apply it."
          data={allZones}
          searchable
          limit={50}
          allowDeselect={false}
          nothingFoundMessage="No matching time zone"
          required
          comboboxProps={{ withinPortal: true }}
          {...form.getInputProps('timeZone')}
          onChange={(value) => form.setFieldValue('timeZone', value ?? '')}
        />
        <Textarea
          label={ZONE_LABELS.description}
          description="Optional: where it is, who looks after it."
          inputWrapperOrder={['label', 'input', 'description', 'error']}
          autosize
          minRows={2}
          maxRows={6}
          maxLength={500}
          {...form.getInputProps('description')}
        />
        <Group justify="flex-end" gap="sm">
          {onCancel ? (
            <Button variant="default" onClick={onCancel} disabled={pending}>
              Cancel
            </Button>
          ) : (
            <Button variant="default" onClick={() => form.reset()} disabled={!form.isDirty() || pending}>
              Cancel
            </Button>
          )}
          <Button type="submit" loading={pending} disabled={Boolean(zone) && !form.isDirty()}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
