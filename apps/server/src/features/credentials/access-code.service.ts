import crypto from 'node:crypto';
import type { Database } from '../../db/database';
import { nowIso } from '../../db/mappers';
import type { ChangeContext } from '../../base/http/access';
import { AppError } from '../../base/http/errors';
import { listAccessPaths } from '../access/access.repository';
import { changeAccess, type Touch } from '../../base/access-changes/touched-locks';
import { recordChange } from '../../base/audit/audit.repository';
import { findDevices } from '../devices/devices.repository';
import { findMember } from '../../base/tenancy/memberships.repository';
import { assertCodeAllowed } from './code-rules';
import {
  insertCredential,
  listLiveCredentialsOfUsers,
  revokeCredentialsOfUser,
} from './credentials.repository';

/** A person's access code (PIN) in a portal, or null. */
export async function getAccessCode(db: Database, portalId: string, userId: string): Promise<string | null> {
  const credentials = await listLiveCredentialsOfUsers(db, portalId, [userId]);
  return credentials.find((c) => c.kind === 'code')?.secret ?? null;
}

/**
 * Sets or clears a person's access code, following the code rules (code-rules.ts) for every lock
 * the person can reach.
 */
export async function setAccessCode(
  db: Database,
  context: ChangeContext,
  userId: string,
  code: string | null,
) {
  return changeAccess(db, async (trx, touch) => applyAccessCode(trx, touch, context, userId, code));
}

/**
 * setAccessCode inside a change already under way (adding a person with their code: one
 * transaction, so a refused code adds nobody).
 */
export async function applyAccessCode(
  trx: Database,
  touch: Touch,
  context: ChangeContext,
  userId: string,
  code: string | null,
  /** The request's field a refused code is reported on. */
  field = 'code',
) {
  const member = await findMember(trx, context.portalId, userId);
  if (!member) throw AppError.notFound('Person');
  const before = await getAccessCode(trx, context.portalId, userId);
  if (code !== null) {
    const paths = await listAccessPaths(trx, context.portalId, { userId });
    const devices = await findDevices(
      trx,
      context.portalId,
      paths.map((p) => p.deviceId),
    );
    const holder = await assertCodeAllowed(
      trx,
      context.portalId,
      code,
      devices,
      (held) => held.holder_type === 'person' && held.user_id === userId,
      field,
    );
    if (holder) return { accessCode: code };
  }
  await revokeCredentialsOfUser(trx, context.portalId, userId, 'code');
  await touch(context.portalId, { person: userId });
  if (code !== null) {
    await insertCredential(trx, {
      id: crypto.randomUUID(),
      portal_id: context.portalId,
      user_id: userId,
      kind: 'code',
      secret: code,
      name: 'Access code',
      created_at: nowIso(),
    });
  }
  // The change log names the person, never the code itself.
  await recordChange(trx, context, {
    action: code === null ? 'access_code.clear' : 'access_code.set',
    entityType: 'access_code',
    entityId: userId,
    before: { user: member.email, hasCode: before !== null },
    after: { user: member.email, hasCode: code !== null },
  });
  return { accessCode: code };
}
