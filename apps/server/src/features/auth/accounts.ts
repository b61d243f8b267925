import crypto from 'node:crypto';
import { emailSchema, type CreateAccountInput } from '@latchkey/shared';
import { isUniqueViolation, type Database } from '../../db/database';
import { nowIso } from '../../db/mappers';
import type { AccountOfferPurpose, AccountOfferRow, NewUserRow, UserRow } from '../../db/schema';
import { AppError } from '../../base/http/errors';
import type { RenderedMail } from '../../base/mail/mail.templates';
import { sendMail } from '../../base/mail/send-mail';
import { insertOwnedPortal } from '../../base/tenancy/portals.repository';
import { assertAcceptablePassword, hashPassword, NO_PASSWORD } from './password';
import { findUserByEmail, findUserById } from '../../base/identity/users.repository';

// The accounts module: the one door to the `users` table (docs/decisions.md "One door for accounts;
// a guest link proves nothing"). Nothing else inserts a person (account-mechanism.test.ts scans the
// server for it), and it holds the two rules that make an account safe:
// - an address is confirmed only by a secret that went to that mailbox and nowhere else: a token
//   this module mails itself (offerAccount) or an account token followed from mail
//   (finishInvitedAccount; account-recovery.service.ts for verification and reset);
// - a password is set only by the person who proved the address, or chosen at sign-up for an
//   address that stays unconfirmed until its link is followed.
// Every door refuses an empty or malformed address: an account always has a real one.

const DUPLICATE_EMAIL = 'An account with this email already exists';

/** The address as accounts keep it (trimmed, lower case); 400 for an empty or malformed one. */
export function accountAddress(email: string): string {
  const parsed = emailSchema.safeParse(email);
  if (!parsed.success) {
    const message = 'must be an email address';
    throw AppError.badRequest(`email ${message}`, [{ path: 'body.email', message }]);
  }
  return parsed.data;
}

/** The only insert into `users`. */
async function insertUser(db: Database, row: NewUserRow): Promise<void> {
  await db
    .insertInto('users')
    .values({ ...row, email: accountAddress(row.email) })
    .execute();
}

/** The name a new portal gets when the person does not choose one. */
function defaultPortalName(input: { firstName: string; email: string }): string {
  return `${input.firstName || input.email.split('@')[0]}'s portal`;
}

type AccountInput = Required<Omit<CreateAccountInput, 'portalName'>> & { portalName?: string };

/** A person with a password and the portal they own, with them as its admin; 409 for a taken address. */
async function makeAccount(
  db: Database,
  input: AccountInput,
  options: { platformRole?: 'superAdmin'; timeZone?: string; confirmed: boolean; ownPortal?: boolean },
): Promise<UserRow> {
  const email = accountAddress(input.email);
  assertAcceptablePassword(input.password);
  if (await findUserByEmail(db, email)) throw AppError.conflict(DUPLICATE_EMAIL);
  const passwordHash = await hashPassword(input.password);
  const now = nowIso();
  const userId = crypto.randomUUID();
  try {
    await db.transaction().execute(async (trx) => {
      await insertUser(trx, {
        id: userId,
        email,
        password_hash: passwordHash,
        first_name: input.firstName,
        last_name: input.lastName,
        platform_role: options.platformRole ?? null,
        status: 'active',
        email_verified_at: options.confirmed ? now : null,
        created_at: now,
        updated_at: now,
      });
      if (options.ownPortal === false) return;
      await insertOwnedPortal(trx, {
        portalId: crypto.randomUUID(),
        userId,
        name: input.portalName || defaultPortalName({ ...input, email }),
        timeZone: options.timeZone ?? 'UTC',
        now,
      });
    });
  } catch (error) {
    // Two sign-ups with one email at the same moment: the unique index decides.
    if (isUniqueViolation(error)) throw AppError.conflict(DUPLICATE_EMAIL);
    throw error;
  }
  return (await findUserById(db, userId))!;
}

/**
 * Sign-up (POST auth/create, reseller sign-up): a person and the portal they own. The address stays
 * unconfirmed until the verification link mailed to it is followed. A taken address is a 409.
 */
export function createAccount(
  db: Database,
  input: AccountInput,
  options: { platformRole?: 'superAdmin'; timeZone?: string } = {},
): Promise<UserRow> {
  return makeAccount(db, input, { ...options, confirmed: false });
}

/**
 * Demo data only (demo/seed-demo.ts, demo-billing.ts): accounts at the operator's own example
 * addresses, confirmed from the start so the demo can be tried at once. Never called for an
 * address a request named.
 */
export function createDemoAccount(
  db: Database,
  input: AccountInput,
  options: { platformRole?: 'superAdmin'; timeZone?: string; ownPortal?: boolean } = {},
): Promise<UserRow> {
  return makeAccount(db, input, { ...options, confirmed: true });
}

/**
 * Benchmark data only (demo/seed-large.ts): many confirmed accounts in one statement, all with one
 * password hash, inside the caller's transaction.
 */
export async function seedAccountsInBulk(
  db: Database,
  rows: { id: string; email: string; firstName: string; lastName: string }[],
  passwordHash: string,
  now: string,
): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('users')
    .values(
      rows.map((row) => ({
        id: row.id,
        email: accountAddress(row.email),
        password_hash: passwordHash,
        first_name: row.firstName,
        last_name: row.lastName,
        platform_role: null,
        status: 'active',
        email_verified_at: now,
        created_at: now,
        updated_at: now,
      })),
    )
    .execute();
}

/**
 * An account made for someone else's invitation (a portal's admin adding a person, a reseller's
 * customer): no password and no name, unconfirmed. Nobody can sign in to it until its owner follows
 * the invitation link and chooses a password there (finishInvitedAccount).
 */
export async function createInvitedAccount(db: Database, email: string): Promise<UserRow> {
  const id = crypto.randomUUID();
  const now = nowIso();
  await insertUser(db, {
    id,
    email,
    password_hash: NO_PASSWORD,
    first_name: '',
    last_name: '',
    platform_role: null,
    status: 'active',
    email_verified_at: null,
    created_at: now,
    updated_at: now,
  });
  return (await findUserById(db, id))!;
}

/**
 * The owner of an invited account followed the link mailed to its address (the invitation token,
 * used by the caller in this transaction) and chose a password: it is set and the address confirmed.
 */
export async function finishInvitedAccount(
  db: Database,
  userId: string,
  chosen: { passwordHash: string; firstName: string; lastName: string },
): Promise<void> {
  await db
    .updateTable('users')
    .set({
      password_hash: chosen.passwordHash,
      first_name: chosen.firstName,
      last_name: chosen.lastName,
      email_verified_at: nowIso(),
      updated_at: nowIso(),
    })
    .where('id', '=', userId)
    .where('password_hash', '=', NO_PASSWORD)
    .execute();
}

const hashToken = (token: string) => crypto.createHash('sha256').update(token).digest('hex');

/** How long a mailed account offer can be followed. */
export const ACCOUNT_OFFER_TTL_MINUTES = 24 * 60;

/**
 * Offers an account to an address that has none, for something someone else caused (a guest's
 * stay): makes a single-use token, keeps only its hash, and mails the link to that address. The
 * token is never answered to the caller: only the mailbox gets it. A newer offer for the same
 * address, purpose and subject replaces the unused ones. `render` builds the mail from the link.
 */
export async function offerAccount(
  db: Database,
  offer: {
    email: string;
    purpose: AccountOfferPurpose;
    portalId: string | null;
    subjectId: string | null;
    link: (token: string) => string;
    render: (link: string) => RenderedMail;
  },
): Promise<void> {
  const email = accountAddress(offer.email);
  const token = crypto.randomBytes(32).toString('base64url');
  const now = new Date();
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('account_offers')
      .set({ used_at: now.toISOString() })
      .where('email', '=', email)
      .where('purpose', '=', offer.purpose)
      .where('subject_id', offer.subjectId === null ? 'is' : '=', offer.subjectId)
      .where('used_at', 'is', null)
      .execute();
    await trx
      .insertInto('account_offers')
      .values({
        id: crypto.randomUUID(),
        email,
        purpose: offer.purpose,
        portal_id: offer.portalId,
        subject_id: offer.subjectId,
        token_hash: hashToken(token),
        expires_at: new Date(now.getTime() + ACCOUNT_OFFER_TTL_MINUTES * 60_000).toISOString(),
        created_at: now.toISOString(),
      })
      .execute();
    // Counted where it is asked for (AuthLimits.countAccountMail), as verification and reset are.
    await sendMail(trx, 'to-requester', {
      portalId: offer.portalId,
      template: `account_offer_${offer.purpose}`,
      to: email,
      ...offer.render(offer.link(token)),
    });
  });
}

/**
 * The owner of an address followed an offer's link and chose a password: uses the offer once, makes
 * the account confirmed (the link proved the address) with its own portal, and runs `then` in the
 * same transaction (linking what the offer was for). 400 for a link that was used, replaced or has
 * expired; 409 when the address has an account by now (its owner signs in with its password).
 */
export async function claimAccountOffer<T>(
  db: Database,
  token: string,
  chosen: { password: string; firstName: string },
  what: {
    /** The time zone of the portal the account gets (the stay's locks'). */
    timeZone: (trx: Database, offer: AccountOfferRow) => Promise<string>;
    /** The name the account gets when the person left theirs empty (the stay's guest name). */
    defaultName: (trx: Database, offer: AccountOfferRow) => Promise<string>;
    then: (trx: Database, user: UserRow, offer: AccountOfferRow) => Promise<T>;
  },
): Promise<{ user: UserRow; result: T }> {
  assertAcceptablePassword(chosen.password);
  const passwordHash = await hashPassword(chosen.password);
  try {
    return await db.transaction().execute(async (trx) => {
      const now = nowIso();
      const offer = await trx
        .updateTable('account_offers')
        .set({ used_at: now })
        .where('token_hash', '=', hashToken(token))
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .returningAll()
        .executeTakeFirst();
      if (!offer) {
        throw AppError.badRequest(
          'This link is not valid any more: it was used, replaced by a newer one, or has expired',
        );
      }
      if (await findUserByEmail(trx, offer.email)) {
        throw AppError.conflict(
          `${offer.email} has a Latchkey account already: sign in with its password on your stay's page`,
        );
      }
      const userId = crypto.randomUUID();
      const firstName = chosen.firstName.trim() || (await what.defaultName(trx, offer)).trim();
      await insertUser(trx, {
        id: userId,
        email: offer.email,
        password_hash: passwordHash,
        first_name: firstName,
        last_name: '',
        platform_role: null,
        status: 'active',
        email_verified_at: now,
        created_at: now,
        updated_at: now,
      });
      await insertOwnedPortal(trx, {
        portalId: crypto.randomUUID(),
        userId,
        name: defaultPortalName({ firstName, email: offer.email }),
        timeZone: await what.timeZone(trx, offer),
        now,
      });
      const user = (await findUserById(trx, userId))!;
      return { user, result: await what.then(trx, user, offer) };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw AppError.conflict(DUPLICATE_EMAIL);
    throw error;
  }
}
