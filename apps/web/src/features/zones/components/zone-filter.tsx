import { NO_ZONE_FILTER } from '@latchkey/shared';
import { Select, type SelectProps } from '@mantine/core';
import { accessibleClearButton } from '@/lib/clear-button';
import { useZones } from '../api/get-zones';

interface ZoneFilterProps extends Omit<SelectProps, 'data' | 'value' | 'onChange'> {
  /** A zone id, 'none' (the locks in no zone), or null for every lock. */
  value: string | null;
  onChange: (zoneId: string | null) => void;
}

/**
 * The zone filter of the lock list, the dashboard, the activity and reports: a zone takes its
 * sub-zones along. Shows nothing while the portal has no zones.
 */
export function ZoneFilter({ value, onChange, label = 'Zone', ...props }: ZoneFilterProps) {
  const zones = useZones();
  if (!zones.data || (zones.data.length === 0 && !value)) return null;
  const data = [
    ...zones.data.map((zone) => ({ value: zone._id, label: `${'— '.repeat(zone.depth - 1)}${zone.name}` })),
    { value: NO_ZONE_FILTER, label: 'In no zone' },
  ];
  return (
    <Select
      label={label}
      placeholder="All zones"
      data={data}
      value={value}
      onChange={onChange}
      clearable
      clearButtonProps={accessibleClearButton('Clear zone')}
      comboboxProps={{ withinPortal: true }}
      {...props}
    />
  );
}
