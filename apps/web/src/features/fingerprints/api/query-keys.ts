/** Query keys of the fingerprints feature. */
export const fingerprintKeys = {
  detail: (fingerprintId: string) => ['fingerprints', 'detail', fingerprintId] as const,
};

export const fingerprintPath = (fingerprintId: string) =>
  `portal/fingerprint/${encodeURIComponent(fingerprintId)}`;
