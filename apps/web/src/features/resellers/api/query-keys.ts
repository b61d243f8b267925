/** Query keys of the reseller area (the reseller's own data, not a portal's). */
export const resellerKeys = {
  all: ['reseller'] as const,
  account: () => ['reseller', 'account'] as const,
  mine: () => ['reseller', 'mine'] as const,
  summary: (year: number | null, month: number | null) => ['reseller', 'summary', year, month] as const,
};
