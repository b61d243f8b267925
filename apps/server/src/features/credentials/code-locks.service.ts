import crypto from 'node:crypto';
import type { CodeLockCreate, DeviceCreated } from '@latchkey/shared';
import type { Database } from '../../db/database';
import { nowIso } from '../../db/mappers';
import type { ChangeContext } from '../../base/http/access';
import { findPortalById } from '../../base/tenancy/portals.repository';
import { createDevice } from '../devices/devices.service';
import type { LockAllowance } from '../subscriptions/plan-allowance';
import { assertCodeAllowed } from './code-rules';
import { bindCredentialToDevice, insertCredential } from './credentials.repository';

/**
 * Adds a keypad-only code lock (brief: device/codelock/add) whose master code opens it at any time;
 * the code follows the code rules of the portal and of the code lock's keypad. A lock and its first
 * credential: the credentials feature composes it from the devices feature's createDevice.
 */
export async function createCodeLock(
  db: Database,
  context: ChangeContext,
  input: CodeLockCreate,
  allowance: LockAllowance = 'enforced',
): Promise<DeviceCreated> {
  const portal = await findPortalById(db, context.portalId);
  const timeZone = input.timeZone ?? portal?.time_zone ?? 'UTC';
  return createDevice(
    db,
    context,
    { name: input.name, model: 'generic-codelock', timeZone },
    async (trx, device) => {
      await assertCodeAllowed(trx, context.portalId, input.code, [device]);
      const credentialId = crypto.randomUUID();
      await insertCredential(trx, {
        id: credentialId,
        portal_id: context.portalId,
        user_id: null,
        holder_type: 'master',
        kind: 'code',
        secret: input.code,
        name: 'Master code',
        created_at: nowIso(),
      });
      await bindCredentialToDevice(trx, context.portalId, credentialId, device.id);
    },
    allowance,
  );
}
