import { apiKeyCreatedSchema, apiKeyCreateSchema, apiKeyRecordSchema } from '@latchkey/shared';
import { z } from 'zod';
import { AppError } from '../../base/http/errors';
import { toApiKeyRecord } from '../api-keys/api-keys.presenter';
import { findApiKey } from '../api-keys/api-keys.repository';
import { createApiKey, getApiKeys, revokeKey } from '../api-keys/api-keys.service';
import { defineCollection } from './registry';

/**
 * `apikeys`: the portal's API keys (features/api-keys), for admins signed in as themselves, on the
 * same service as portal/apikeys. `area: null`: no API key may call these routes whatever its
 * scopes, so a key can never mint, list or revoke keys (nor widen its own). `new` answers the
 * secret this once; DELETE revokes (the key is refused from the next request). Keys are never
 * edited, so there is no save. get and list answer revoked keys too (with `revokedAt`), as the
 * keys page shows them, so `ls` reports a revocation as a change of the key (with `revokedAt`), not
 * a deletion: it says what get says (migration 0049); a key's last use is no change.
 */
export const apikeysCollection = defineCollection({
  name: 'apikeys',
  feature: 'api-keys',
  idKind: 'apiKeyId',
  record: apiKeyRecordSchema,
  get: {
    access: 'admin',
    summary: 'An API key, never its secret (as in GET portal/apikeys)',
    handler: async (caller, id) => {
      const row = await findApiKey(caller.db, caller.portalId, id);
      if (!row) throw AppError.notFound('API key');
      return toApiKeyRecord(row);
    },
  },
  list: {
    access: 'admin',
    summary: "The portal's API keys, newest first, never their secrets (as GET portal/apikeys)",
    filter: z.strictObject({}),
    handler: async (caller) => {
      const { keys } = await getApiKeys(caller.db, caller.portalId);
      return { items: keys, total: keys.length };
    },
  },
  create: {
    access: 'admin',
    summary: 'Create an API key: answers its secret, this once (as POST portal/apikeys)',
    body: apiKeyCreateSchema,
    example: { name: 'Collection key', scopes: ['devices:read'] },
    answer: apiKeyCreatedSchema,
    handler: (caller, body) => createApiKey(caller.db, caller.change(), body),
  },
  remove: {
    access: 'admin',
    summary: 'Revoke an API key: it is refused at once, on every server (as POST portal/apikeys/{id}/revoke)',
    handler: async (caller, id) => {
      await revokeKey(caller.db, caller.change(), id);
    },
  },
  ls: { access: 'admin', summary: 'API keys created and revoked since a cursor' },
});
