import crypto from 'node:crypto';
import { LOCK_MODELS, type CompanyCode, type CompanyCodeInput } from '@latchkey/shared';
import type { Database } from '../../db/database';
import { nowIso, toIso } from '../../db/mappers';
import type { CredentialRow } from '../../db/schema';
import type { ChangeContext } from '../../base/http/access';
import { AppError } from '../../base/http/errors';
import { recordChange } from '../../base/audit/audit.repository';
import { changeAccess } from '../../base/access-changes/touched-locks';
import { listAllDevices } from '../devices/devices.repository';
import { assertCodeAllowed } from './code-rules';
import { insertCredential, revokeCredential } from './credentials.repository';

function toCompanyCode(row: CredentialRow): CompanyCode {
  return {
    _id: row.id,
    name: row.name,
    code: row.secret,
    validFrom: toIso(row.valid_from),
    validUntil: toIso(row.valid_until),
    createdAt: toIso(row.created_at),
  };
}

function liveCompanyCodes(db: Database, portalId: string) {
  return db
    .selectFrom('credentials')
    .selectAll()
    .where('portal_id', '=', portalId)
    .where('holder_type', '=', 'company')
    .where('kind', '=', 'code')
    .where('revoked_at', 'is', null);
}

/** The portal's live company codes, newest first. */
export async function listCompanyCodes(db: Database, portalId: string): Promise<CompanyCode[]> {
  const rows = await liveCompanyCodes(db, portalId).orderBy('created_at', 'desc').orderBy('id').execute();
  return rows.map(toCompanyCode);
}

/** The portal's locks with a keypad: the only ones a company code opens (credential-sets.ts). */
async function keypadLocks(db: Database, portalId: string) {
  return (await listAllDevices(db, portalId)).filter((d) => LOCK_MODELS[d.model].keypad);
}

/**
 * Adds a company code: it opens every keypad lock of the portal, so it must fit every keypad here,
 * and like every code it names one holder in the portal.
 */
export async function createCompanyCode(
  db: Database,
  context: ChangeContext,
  input: Required<CompanyCodeInput>,
): Promise<CompanyCode> {
  return changeAccess(db, async (trx, touch) => {
    const keypads = await keypadLocks(trx, context.portalId);
    await assertCodeAllowed(trx, context.portalId, input.code, keypads);
    const id = crypto.randomUUID();
    await insertCredential(trx, {
      id,
      portal_id: context.portalId,
      user_id: null,
      holder_type: 'company',
      kind: 'code',
      secret: input.code,
      name: input.name,
      valid_from: input.validFrom && new Date(input.validFrom).toISOString(),
      valid_until: input.validUntil && new Date(input.validUntil).toISOString(),
      created_at: nowIso(),
    });
    // Only keypad locks change (and so only their histories show it); a lock without one never
    // holds the code.
    await touch(context.portalId, { locks: keypads.map((d) => d.id) });
    const created = toCompanyCode(
      (await liveCompanyCodes(trx, context.portalId).where('id', '=', id).executeTakeFirst())!,
    );
    // Like personal codes, the change log never holds the code itself.
    const { code: _code, ...logged } = created;
    await recordChange(trx, context, {
      action: 'company_code.create',
      entityType: 'company_code',
      entityId: id,
      after: logged,
    });
    return created;
  });
}

/** Retires a company code: it opens nothing from now on. */
export async function deleteCompanyCode(db: Database, context: ChangeContext, id: string): Promise<void> {
  await changeAccess(db, async (trx, touch) => {
    const row = await liveCompanyCodes(trx, context.portalId).where('id', '=', id).executeTakeFirst();
    if (!row) throw AppError.notFound('Company code');
    await revokeCredential(trx, context.portalId, id);
    await touch(context.portalId, { locks: (await keypadLocks(trx, context.portalId)).map((d) => d.id) });
    const { code: _code, ...logged } = toCompanyCode(row);
    await recordChange(trx, context, {
      action: 'company_code.delete',
      entityType: 'company_code',
      entityId: id,
      before: logged,
    });
  });
}
