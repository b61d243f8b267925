import { deviceSchema, type Device } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { deviceKeys } from './query-keys';

/** GET portal/device/battery/low (admin): locks below their own low-battery level. */
export async function getLowBatteryDevices(): Promise<Device[]> {
  return deviceSchema.array().parse(await api.get<unknown>('portal/device/battery/low'));
}

export const lowBatteryDevicesQueryOptions = () =>
  queryOptions({ queryKey: deviceKeys.lowBattery(), queryFn: getLowBatteryDevices });

export function useLowBatteryDevices() {
  return useQuery(lowBatteryDevicesQueryOptions());
}
