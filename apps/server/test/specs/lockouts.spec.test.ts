import { specifyRoutes } from '../route-spec';

// The routes of features/lockouts, walked from the route registry (route-spec.ts).
await specifyRoutes('lockouts', {
  examples: {
    'POST /api3/portal/lockout': (tenant) => ({
      payload: {
        name: 'Holiday',
        from: '2031-01-01T00:00:00+01:00',
        until: '2031-01-02T00:00:00+01:00',
        deviceIds: [tenant.deviceId],
      },
    }),
  },
});
