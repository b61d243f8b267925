import { hash, verify } from '@node-rs/argon2';
import { dictionary } from '@zxcvbn-ts/language-common';
import { AppError } from '../../base/http/errors';

let commonPasswords: Set<string> | null = null;

/** True for passwords in the common-password list of zxcvbn-ts (about 50,000 entries). */
export function isCommonPassword(password: string): boolean {
  commonPasswords ??= new Set((dictionary['passwords-common'] as string[]).map((p) => p.toLowerCase()));
  return commonPasswords.has(password.toLowerCase());
}

/** Refuses a chosen password that is too common; length is checked by the shared schema. */
export function assertAcceptablePassword(password: string, field = 'password'): void {
  if (isCommonPassword(password)) {
    const message = 'is too common; choose one that is harder to guess';
    throw AppError.badRequest(`${field}: ${message}`, [{ path: `body.${field}`, message }]);
  }
}

/**
 * The server's own test suite alone (apps/server/vitest.config.ts) sets this: its hundreds of
 * sign-ups and sign-ins hash at 1 MiB and one pass, 2 ms instead of 42 ms of CPU each. The hash
 * names its own parameters, so verifying is the same code either way; a test checks that without
 * the variable the stored hash is the production one, and the end-to-end run uses the build as it is.
 */
const CHEAP_HASH_FOR_TESTS = 'LATCHKEY_TEST_CHEAP_PASSWORD_HASH';

/** An argon2id hash (the library's defaults: 19 MiB, 2 passes). */
export function hashPassword(password: string): Promise<string> {
  return process.env[CHEAP_HASH_FOR_TESTS] === '1'
    ? hash(password, { memoryCost: 1024, timeCost: 1 })
    : hash(password);
}

/** Checks a password; an account with no password yet (invited, not accepted) matches nothing. */
export function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  if (passwordHash === NO_PASSWORD) return verifyAgainstDecoy(password);
  return verify(passwordHash, password).catch(() => false);
}

/** The stored hash of a person invited by email who has not chosen a password yet. */
export const NO_PASSWORD = '';

let decoyHash: Promise<string> | null = null;

/** Spends the time of a real verification, so an unknown email is not told apart by timing. */
export async function verifyAgainstDecoy(password: string): Promise<false> {
  decoyHash ??= hash('decoy password that never matches');
  await verify(await decoyHash, password).catch(() => false);
  return false;
}
