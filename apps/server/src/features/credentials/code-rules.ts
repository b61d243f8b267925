import crypto from 'node:crypto';
import { LOCK_MODELS } from '@latchkey/shared';
import type { Database } from '../../db/database';
import type { CredentialRow, DeviceRow } from '../../db/schema';
import { AppError } from '../../base/http/errors';
import { findLiveCredentialBySecret } from './credentials.repository';

export const CODE_MIN = 4;
export const CODE_MAX = 12;

/** A 400 on `body.<field>` saying which code rule failed. */
export function refuseCode(message: string, field = 'code'): never {
  throw AppError.badRequest(`${field} ${message}`, [{ path: `body.${field}`, message }]);
}

/**
 * Checks the rules every access code follows, in order, each with its own message: digits only,
 * 4–12 long, within the keypad of every lock it is meant for, and not live elsewhere in the portal
 * (so a code always names one holder). `isOwn` says which live holder of the same code is this one.
 * Answers the live credential already holding this code when it is this holder's own.
 */
export async function assertCodeAllowed(
  db: Database,
  portalId: string,
  code: string,
  devices: DeviceRow[],
  isOwn: (holder: CredentialRow) => boolean = () => false,
  field = 'code',
): Promise<CredentialRow | undefined> {
  if (!/^\d+$/.test(code)) refuseCode('must be digits only', field);
  if (code.length < CODE_MIN || code.length > CODE_MAX) {
    refuseCode(`must be ${CODE_MIN} to ${CODE_MAX} digits long`, field);
  }
  for (const device of devices) {
    const model = LOCK_MODELS[device.model];
    const limits = model.codeLength;
    if (limits && (code.length < limits.min || code.length > limits.max)) {
      refuseCode(
        `must be ${limits.min} to ${limits.max} digits long for the lock "${device.name}" (${model.label})`,
        field,
      );
    }
  }
  const holder = await findLiveCredentialBySecret(db, portalId, 'code', code);
  if (holder && !isOwn(holder))
    refuseCode('is already used by someone else in this portal; choose another', field);
  return holder;
}

/** A random code of `length` digits that nobody in the portal holds (for guests). */
export async function generateFreeCode(db: Database, portalId: string, length: number): Promise<string> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const code = Array.from({ length }, () => crypto.randomInt(10)).join('');
    if (!(await findLiveCredentialBySecret(db, portalId, 'code', code))) return code;
  }
  throw AppError.conflict('Could not find a free code; set one yourself');
}
