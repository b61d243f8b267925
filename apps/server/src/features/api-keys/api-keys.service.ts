import crypto from 'node:crypto';
import {
  apiKeyCreateSchema,
  type ApiKeyCreated,
  type ApiKeyCreateInput,
  type ApiKeyList,
  type ApiKeyRecord,
} from '@latchkey/shared';
import type { z } from 'zod';
import { recordChange } from '../../base/audit/audit.repository';
import type { ChangeContext } from '../../base/http/access';
import { AppError } from '../../base/http/errors';
import { newApiKeySecret } from '../../base/identity/api-key-auth';
import type { Database } from '../../db/database';
import { nowIso } from '../../db/mappers';
import { toApiKeyRecord } from './api-keys.presenter';
import { findApiKey, insertApiKey, listApiKeys, revokeApiKey } from './api-keys.repository';

// A portal's API keys (docs/decisions.md "API keys"). Made, revoked and deleted by the portal's
// admins with their own session (a key may not call these routes); each change is in the change log.

/** What the change log keeps of a key: never its secret. */
const audited = (key: ApiKeyRecord) => ({
  name: key.name,
  prefix: key.prefix,
  scopes: key.scopes,
  expiresAt: key.expiresAt,
  allowedAddresses: key.allowedAddresses,
});

export async function getApiKeys(db: Database, portalId: string): Promise<ApiKeyList> {
  return { keys: (await listApiKeys(db, portalId)).map(toApiKeyRecord) };
}

/** POST portal/apikeys: a new key, answered with its secret this once (only its hash is stored). */
export async function createApiKey(
  db: Database,
  context: ChangeContext,
  input: z.output<typeof apiKeyCreateSchema> | ApiKeyCreateInput,
): Promise<ApiKeyCreated> {
  const { name, scopes, expiresAt, allowedAddresses } = apiKeyCreateSchema.parse(input);
  const { token, prefix, hash } = newApiKeySecret();
  const id = crypto.randomUUID();
  return db.transaction().execute(async (trx) => {
    await insertApiKey(trx, {
      id,
      portal_id: context.portalId,
      name,
      prefix,
      secret_hash: hash,
      scopes_json: JSON.stringify(scopes),
      allowed_addresses_json: JSON.stringify(allowedAddresses),
      // Who made it, for the list; the key is the portal's and outlives that person's membership.
      created_by: context.apiKeyId ? null : context.actorUserId,
      created_at: nowIso(),
      expires_at: expiresAt === null ? null : new Date(expiresAt).toISOString(),
    });
    const key = toApiKeyRecord((await findApiKey(trx, context.portalId, id))!);
    await recordChange(trx, context, {
      action: 'apiKey.create',
      entityType: 'api_key',
      entityId: id,
      after: audited(key),
    });
    return { key, secret: token };
  });
}

/** POST portal/apikeys/{id}/revoke: the key stops working on every server from the next request. */
export async function revokeKey(db: Database, context: ChangeContext, keyId: string): Promise<ApiKeyRecord> {
  return db.transaction().execute(async (trx) => {
    const before = await findApiKey(trx, context.portalId, keyId);
    if (!before) throw AppError.notFound('API key');
    if (await revokeApiKey(trx, context.portalId, keyId, nowIso())) {
      await recordChange(trx, context, {
        action: 'apiKey.revoke',
        entityType: 'api_key',
        entityId: keyId,
        before: audited(toApiKeyRecord(before)),
      });
    }
    return toApiKeyRecord((await findApiKey(trx, context.portalId, keyId))!);
  });
}
