import type { KeysQuery } from '@latchkey/shared';

export type KeysParams = Partial<
  Pick<KeysQuery, 'skip' | 'limit' | 'search' | 'sortBy' | 'descending' | 'filterBy' | 'filterValue'>
>;

/** Query keys of the keys feature: everything about one key sits under its detail key. */
export const keyKeys = {
  list: (params: KeysParams) => ['keys', 'list', params] as const,
  options: () => ['keys', 'options'] as const,
  detail: (keyId: string) => ['keys', 'detail', keyId] as const,
  history: (keyId: string) => ['keys', 'detail', keyId, 'history'] as const,
};

export const keyPath = (keyId: string) => `portal/keys/${encodeURIComponent(keyId)}`;
