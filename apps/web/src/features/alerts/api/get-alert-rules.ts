import { alertRuleSchema, type AlertRule } from '@latchkey/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { alertKeys } from './query-keys';

/** GET portal/alerts/rules (admin): the portal's alert rules, oldest first. */
export async function getAlertRules(): Promise<AlertRule[]> {
  return alertRuleSchema.array().parse(await api.get<unknown>('portal/alerts/rules'));
}

export function useAlertRules() {
  return useQuery({ queryKey: alertKeys.rules(), queryFn: getAlertRules });
}
