/** Query keys of the alerts feature (under the 'alerts' root of the portal's data). */
export const alertKeys = {
  rules: () => ['alerts', 'rules'] as const,
  notifications: (page: number) => ['alerts', 'notifications', page] as const,
};
