import crypto from 'node:crypto';
import { LOCK_MODELS } from '@latchkey/shared';
import type { Database } from '../../db/database';
import { nowIso } from '../../db/mappers';
import type { ChangeContext } from '../../http/access';
import { AppError } from '../../http/errors';
import { listAccessPaths } from '../access/access.repository';
import { recordChange } from '../audit/audit.repository';
import { findDevices } from '../devices/devices.repository';
import { findMember } from '../portals/memberships.repository';
import {
  findLiveCredentialBySecret,
  insertCredential,
  listLiveCredentialsOfUsers,
  revokeCredentialsOfUser,
} from './credentials.repository';

const CODE_MIN = 4;
const CODE_MAX = 12;

function refuse(message: string): never {
  throw AppError.badRequest(`code ${message}`, [{ path: 'body.code', message }]);
}

/** A person's access code (PIN) in a portal, or null. */
export async function getAccessCode(db: Database, portalId: string, userId: string): Promise<string | null> {
  const credentials = await listLiveCredentialsOfUsers(db, portalId, [userId]);
  return credentials.find((c) => c.kind === 'code')?.secret ?? null;
}

/**
 * Sets or clears a person's access code. The rules, each with its own message: digits only,
 * 4–12 long, within every keypad model the person can reach, and not held by anyone else here.
 */
export async function setAccessCode(
  db: Database,
  context: ChangeContext,
  userId: string,
  code: string | null,
) {
  return db.transaction().execute(async (trx) => {
    const member = await findMember(trx, context.portalId, userId);
    if (!member) throw AppError.notFound('Person');
    const before = await getAccessCode(trx, context.portalId, userId);
    if (code !== null) {
      if (!/^\d+$/.test(code)) refuse('must be digits only');
      if (code.length < CODE_MIN || code.length > CODE_MAX)
        refuse(`must be ${CODE_MIN} to ${CODE_MAX} digits long`);
      const paths = await listAccessPaths(trx, context.portalId, { userId });
      const devices = await findDevices(
        trx,
        context.portalId,
        paths.map((p) => p.deviceId),
      );
      for (const device of devices) {
        const limits = LOCK_MODELS[device.model].codeLength;
        if (limits && (code.length < limits.min || code.length > limits.max)) {
          refuse(
            `must be ${limits.min} to ${limits.max} digits long for the lock "${device.name}" (${LOCK_MODELS[device.model].label})`,
          );
        }
      }
      const holder = await findLiveCredentialBySecret(trx, context.portalId, 'code', code);
      if (holder && holder.user_id !== userId)
        refuse('is already used by someone else in this portal; choose another');
      if (holder) return { accessCode: code };
    }
    await revokeCredentialsOfUser(trx, context.portalId, userId, 'code');
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
  });
}
