import { alertRuleSchema, type AlertRule, type AlertRuleInput } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** The rule as the form sends it (the server fills what a kind does not use). */
export type AlertRuleDraft = Partial<AlertRuleInput> & Pick<AlertRuleInput, 'kind' | 'name'>;

/** POST portal/alerts/rules (create) or POST portal/alerts/rules/{id} (save). */
export async function saveAlertRule({ ruleId, ...draft }: AlertRuleDraft & { ruleId?: string }) {
  const path = ruleId ? `portal/alerts/rules/${encodeURIComponent(ruleId)}` : 'portal/alerts/rules';
  return alertRuleSchema.parse(await api.post<unknown>(path, draft));
}

export function useSaveAlertRule() {
  const queryClient = useQueryClient();
  return useMutation<AlertRule, unknown, AlertRuleDraft & { ruleId?: string }>({
    mutationFn: saveAlertRule,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['alerts'] }),
  });
}
