import crypto from 'node:crypto';
import type { TwoFactorChange, TwoFactorChanged, TwoFactorState } from '@latchkey/shared';
import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';
import type { Database } from '../../db/database';
import { nowIso } from '../../db/mappers';
import type { UserRow } from '../../db/schema';
import { AppError } from '../../base/http/errors';
import { verifyPassword } from './password';
import { findUserById } from '../../base/identity/users.repository';

// Two-factor sign-in with TOTP (RFC 6238: SHA-1, 6 digits, 30-second steps, ±1 step of drift),
// through otplib. Each accepted step is remembered so a code works once; ten recovery codes, stored
// hashed, stand in for a lost phone.

const ISSUER = 'Latchkey';
const RECOVERY_CODE_COUNT = 10;
const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** Encrypts TOTP secrets at rest with a key derived from the server's signing secret. */
export class SecretBox {
  private readonly key: Buffer;

  constructor(serverSecret: Uint8Array) {
    this.key = Buffer.from(crypto.hkdfSync('sha256', serverSecret, 'latchkey', 'totp-secret', 32));
  }

  seal(plain: string): string {
    const iv = crypto.randomBytes(12);
    const cipher = crypto.createCipheriv('aes-256-gcm', this.key, iv);
    const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), sealed]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
  }

  open(stored: string): string {
    const [version, iv, tag, sealed] = stored.split('.');
    if (version !== 'v1' || !iv || !tag || !sealed) throw new Error('unknown secret format');
    const decipher = crypto.createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  }
}

const hashCode = (code: string) => crypto.createHash('sha256').update(code).digest('hex');

function newRecoveryCode(): string {
  const chars = Array.from(crypto.randomBytes(10), (byte) => BASE32[byte % 32]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

function refuseCode(message = 'is not a valid code'): never {
  throw AppError.badRequest(`code ${message}`, [{ path: 'body.code', message }]);
}

async function countRecoveryCodesLeft(db: Database, userId: string): Promise<number> {
  const row = await db
    .selectFrom('recovery_codes')
    .select((eb) => eb.fn.countAll().as('left'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.left);
}

/** GET auth/twoFactor: while off, a pending secret is made (once) for the person to scan. */
export async function getTwoFactorState(
  db: Database,
  box: SecretBox,
  user: UserRow,
): Promise<TwoFactorState> {
  if (user.totp_enabled_at) {
    return {
      enabled: true,
      otpauthUri: null,
      qrCode: null,
      recoveryCodesLeft: await countRecoveryCodesLeft(db, user.id),
    };
  }
  let secret = user.totp_secret ? box.open(user.totp_secret) : null;
  if (!secret) secret = await storePendingSecret(db, box, user.id);
  const otpauthUri = generateURI({ issuer: ISSUER, label: user.email, secret });
  return { enabled: false, otpauthUri, qrCode: await QRCode.toDataURL(otpauthUri), recoveryCodesLeft: 0 };
}

async function storePendingSecret(db: Database, box: SecretBox, userId: string): Promise<string> {
  const secret = generateSecret();
  await db
    .updateTable('users')
    .set({ totp_secret: box.seal(secret), totp_enabled_at: null, totp_last_step: null, updated_at: nowIso() })
    .where('id', '=', userId)
    .execute();
  return secret;
}

/** POST auth/refreshTwoFactor: a new secret to scan (only while two-factor sign-in is off). */
export async function refreshTwoFactorSecret(
  db: Database,
  box: SecretBox,
  user: UserRow,
): Promise<TwoFactorState> {
  if (user.totp_enabled_at) throw AppError.conflict('Turn two-factor sign-in off before making a new secret');
  await storePendingSecret(db, box, user.id);
  return getTwoFactorState(db, box, (await findUserById(db, user.id))!);
}

/**
 * Checks a TOTP code against the person's secret and remembers its step, so it is accepted once.
 * Answers false for a wrong or reused code.
 */
async function acceptTotp(db: Database, box: SecretBox, user: UserRow, code: string): Promise<boolean> {
  if (!user.totp_secret || !/^\d{6}$/.test(code)) return false;
  const result = await verify({ secret: box.open(user.totp_secret), token: code, epochTolerance: 30 });
  // The TOTP result carries the time step the code belongs to (HOTP results, never made here, do not).
  if (!result.valid || !('timeStep' in result)) return false;
  const step = result.timeStep;
  const last = user.totp_last_step === null ? -1 : Number(user.totp_last_step);
  if (step <= last) return false;
  // Conditional update: of two requests with the same code, only one moves the step forward.
  const updated = await db
    .updateTable('users')
    .set({ totp_last_step: step })
    .where('id', '=', user.id)
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1;
}

/** Uses a recovery code once. */
async function acceptRecoveryCode(db: Database, userId: string, code: string): Promise<boolean> {
  if (!/^[a-z2-7]{5}-[a-z2-7]{5}$/.test(code)) return false;
  const updated = await db
    .updateTable('recovery_codes')
    .set({ used_at: nowIso() })
    .where('user_id', '=', userId)
    .where('code_hash', '=', hashCode(code))
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1;
}

/** A code from the app or a recovery code, for signing in or turning two-factor sign-in off. */
export async function acceptSecondFactor(db: Database, box: SecretBox, user: UserRow, code: string) {
  return (await acceptTotp(db, box, user, code)) || (await acceptRecoveryCode(db, user.id, code));
}

/** POST auth/twoFactor: on with a code from the app (answers ten recovery codes), off with password and code. */
export async function changeTwoFactor(
  db: Database,
  box: SecretBox,
  user: UserRow,
  change: TwoFactorChange,
): Promise<TwoFactorChanged> {
  if (change.enable) {
    if (user.totp_enabled_at) throw AppError.conflict('Two-factor sign-in is already on');
    if (!(await acceptTotp(db, box, user, change.code))) refuseCode('is not the current code from your app');
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('recovery_codes').where('user_id', '=', user.id).execute();
      await trx
        .insertInto('recovery_codes')
        .values(
          codes.map((code) => ({
            id: crypto.randomUUID(),
            user_id: user.id,
            code_hash: hashCode(code),
            created_at: nowIso(),
          })),
        )
        .execute();
      await trx
        .updateTable('users')
        .set({ totp_enabled_at: nowIso(), updated_at: nowIso() })
        .where('id', '=', user.id)
        .execute();
    });
    return { enabled: true, recoveryCodes: codes };
  }
  if (!user.totp_enabled_at) throw AppError.conflict('Two-factor sign-in is already off');
  if (!(await verifyPassword(user.password_hash, change.password))) {
    const message = 'is not your current password';
    throw AppError.badRequest(`password ${message}`, [{ path: 'body.password', message }]);
  }
  if (!(await acceptSecondFactor(db, box, user, change.code))) refuseCode();
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('recovery_codes').where('user_id', '=', user.id).execute();
    await trx
      .updateTable('users')
      .set({ totp_secret: null, totp_enabled_at: null, totp_last_step: null, updated_at: nowIso() })
      .where('id', '=', user.id)
      .execute();
  });
  return { enabled: false, recoveryCodes: [] };
}
