import crypto from 'node:crypto';
import {
  BILLING_CURRENCY,
  BRAND_IDS,
  INVITATION_DAYS,
  isPortalCurrent,
  type BillingSummary,
  type BillingSummaryRow,
  type PortalReseller,
  type Reseller,
  type ResellerAccount,
  type resellerCreateSchema,
  type resellerCustomerInputSchema,
  type ResellerCustomer,
} from '@latchkey/shared';
import type { z } from 'zod';
import { isUniqueViolation, type Database } from '../../db/database';
import { nowIso, toIso } from '../../db/mappers';
import type { ResellerRow, UserRow } from '../../db/schema';
import type { ChangeContext } from '../../base/http/access';
import { AppError } from '../../base/http/errors';
import { changeAccess } from '../../base/access-changes/touched-locks';
import { appendAuditEntry, recordChange } from '../../base/audit/audit.repository';
import { issueAccountToken } from '../auth/account-tokens.repository';
import { createInvitedAccount } from '../auth/accounts';
import { findUserByEmail } from '../../base/identity/users.repository';
import { monthBounds, monthOf } from '../billing/bill-computation';
import { closeMonth, runningBill, type Issuer } from '../billing/billing.service';
import { currentPlan } from '../billing/plan-history';
import type { MailThrottle } from '../../base/mail/mail-throttle';
import { sendMail } from '../../base/mail/send-mail';
import { invitationMail } from '../../base/mail/mail.templates';
import { insertMembership } from '../../base/tenancy/memberships.repository';
import { findPortalById, insertPortal } from '../../base/tenancy/portals.repository';
import {
  endLink,
  findResellerByCode,
  findResellerOwnedBy,
  insertLink,
  insertReseller,
  listCurrentCustomers,
  listPortalsLinkedAt,
  listResellerBills,
  setLinkActing,
} from './resellers.repository';
import { endResellerMadeMemberships } from './reseller-memberships';
import { findCurrentLink } from '../../base/tenancy/reseller-links';

// Resellers (issue 13 item 5). A reseller account belongs to one person. Its customers are the
// portals linked to it (it created them, or their owner linked them by the reseller's code); it
// sees what each was billed, its wholesale cost and its margin, and acts in a customer's portal
// (the portal override, acting-portal.service.ts) only while the customer allows it.

/** Letters and digits that cannot be mistaken for one another when read aloud or typed. */
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

function newLinkCode(): string {
  return Array.from({ length: 8 }, () => CODE_ALPHABET[crypto.randomInt(CODE_ALPHABET.length)]).join('');
}

function toReseller(row: ResellerRow): Reseller {
  return {
    _id: row.id,
    name: row.name,
    country: row.country,
    vatNumber: row.vat_number,
    linkCode: row.link_code,
    brand: BRAND_IDS.find((id) => id === row.brand) ?? null,
    createdAt: toIso(row.created_at),
  };
}

/** The person's reseller account; 404 when they have none. */
export async function requireResellerOf(db: Database, userId: string): Promise<ResellerRow> {
  const reseller = await findResellerOwnedBy(db, userId);
  if (!reseller) throw new AppError('not_found', 'You have no reseller account; open one first', 404);
  return reseller;
}

/** POST reseller/new (and the second half of reseller sign-up): a reseller account for a person. */
export async function createReseller(
  db: Database,
  user: Pick<UserRow, 'id'>,
  input: z.output<typeof resellerCreateSchema>,
): Promise<Reseller> {
  if (await findResellerOwnedBy(db, user.id)) throw AppError.conflict('You already have a reseller account');
  for (let attempt = 0; ; attempt++) {
    const now = nowIso();
    const row = {
      id: crypto.randomUUID(),
      owner_user_id: user.id,
      name: input.companyName,
      country: input.country,
      vat_number: input.vatNumber,
      link_code: newLinkCode(),
      brand: null,
      created_at: now,
      updated_at: now,
    };
    try {
      await insertReseller(db, row);
      return toReseller(row);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      // Two requests at once for one person: the first one's account stands.
      if (await findResellerOwnedBy(db, user.id))
        throw AppError.conflict('You already have a reseller account');
      // Otherwise a link code taken by another reseller (1 in 10^12): draw again.
      if (attempt >= 5) throw error;
    }
  }
}

/** GET reseller: the account and its customers now. */
export async function getResellerAccount(db: Database, userId: string): Promise<ResellerAccount> {
  const reseller = await requireResellerOf(db, userId);
  const rows = await listCurrentCustomers(db, reseller.id);
  const customers: ResellerCustomer[] = await Promise.all(
    rows.map(async (row) => ({
      portalId: row.portal_id,
      name: row.portal_name,
      ownerEmail: row.owner_email,
      plan: await currentPlan(db, row.portal_id),
      allowActing: Number(row.allow_acting) === 1,
      linkedAt: toIso(row.linked_at),
      current: isPortalCurrent({ stripeStatus: row.stripe_status, expireDate: toIso(row.expire_date) }),
      lockCount: Number(row.lock_count ?? 0),
    })),
  );
  return { reseller: toReseller(reseller), customers };
}

/**
 * POST reseller/customer: a new portal for a customer, owned by the customer's admin, who is
 * invited by mail to choose a password (as adding a person is). An address that already has an
 * account is refused: its owner links their own portal with the reseller's code instead, so nobody
 * is made the owner of a portal they did not ask for.
 */
export async function createCustomerPortal(
  db: Database,
  mail: { publicUrl: string; throttle: MailThrottle },
  user: UserRow,
  input: z.output<typeof resellerCustomerInputSchema>,
  ip: string,
): Promise<ResellerCustomer> {
  const reseller = await requireResellerOf(db, user.id);
  return db.transaction().execute(async (trx) => {
    if (await findUserByEmail(trx, input.adminEmail)) {
      throw AppError.conflict(
        `${input.adminEmail} already has a Latchkey account: ask its owner to link their portal to you with your code ${reseller.link_code}`,
      );
    }
    const now = nowIso();
    const ownerId = (await createInvitedAccount(trx, input.adminEmail)).id;
    const portalId = crypto.randomUUID();
    await insertPortal(trx, {
      id: portalId,
      name: input.portalName,
      owner_user_id: ownerId,
      time_zone: input.timeZone,
      expire_date: null,
      stripe_status: null,
      created_at: now,
      updated_at: now,
    });
    // The owner acts in it once they accept (and choose their password).
    await insertMembership(trx, {
      portal_id: portalId,
      user_id: ownerId,
      role: 'admin',
      status: 'invited',
      first_name: null,
      last_name: null,
      created_at: now,
      updated_at: now,
    });
    await insertLink(trx, {
      id: crypto.randomUUID(),
      portal_id: portalId,
      reseller_id: reseller.id,
      allow_acting: 1,
      linked_at: now,
      unlinked_at: null,
    });
    const token = await issueAccountToken(trx, ownerId, 'invitation', INVITATION_DAYS * 24 * 60, portalId);
    const rendered = invitationMail({
      portalName: input.portalName,
      invitedBy: reseller.name,
      role: 'admin',
      link: `${mail.publicUrl}/invite?token=${token}`,
      newAccount: true,
      days: INVITATION_DAYS,
    });
    await sendMail(
      trx,
      'to-others',
      { portalId, template: 'invitation', to: input.adminEmail, ...rendered },
      { user, throttle: mail.throttle },
    );
    await appendAuditEntry(trx, portalId, {
      actorUserId: user.id,
      ip,
      action: 'reseller.customer_create',
      entityType: 'reseller_link',
      entityId: reseller.id,
      after: { reseller: reseller.name, owner: input.adminEmail, allowActing: true },
    });
    return {
      portalId,
      name: input.portalName,
      ownerEmail: input.adminEmail,
      plan: 'free' as const,
      allowActing: true,
      linkedAt: now,
      current: false,
      lockCount: 0,
    };
  });
}

function sumRows(rows: BillingSummaryRow[]) {
  return rows.reduce(
    (sum, row) => ({
      billedNetMinor: sum.billedNetMinor + row.billedNetMinor,
      billedTotalMinor: sum.billedTotalMinor + row.billedTotalMinor,
      wholesaleMinor: sum.wholesaleMinor + row.wholesaleMinor,
      marginMinor: sum.marginMinor + row.marginMinor,
    }),
    { billedNetMinor: 0, billedTotalMinor: 0, wholesaleMinor: 0, marginMinor: 0 },
  );
}

/**
 * GET reseller/billingSummary(/{year}/{month}): per customer, what it was billed (net and with
 * VAT), the reseller's wholesale cost for the same lock-days, and the margin (net − wholesale;
 * VAT passes through). A closed month lists the bills of the portals linked to the reseller at
 * its end (closing any not closed yet); the running month, the portals linked now, so far.
 * Months before the reseller existed, and months to come, are 404.
 */
export async function getBillingSummary(
  db: Database,
  issuer: Issuer,
  userId: string,
  month: { year: number; month: number } | null,
  now: Date = new Date(),
): Promise<BillingSummary> {
  const reseller = await requireResellerOf(db, userId);
  const { year, month: m } = month ?? monthOf(now);
  const { start, end } = monthBounds(year, m);
  const created = new Date(toIso(reseller.created_at));
  if (start > now || end <= created) throw AppError.notFound('Billing summary for that month');
  const first = monthOf(created);
  let customers: BillingSummaryRow[];
  if (end > now) {
    const linked = await listCurrentCustomers(db, reseller.id);
    customers = [];
    for (const link of linked) {
      const portal = await findPortalById(db, link.portal_id);
      if (!portal) continue;
      const { bill, wholesaleMinor } = await runningBill(db, issuer, portal, now, false);
      customers.push({
        portalId: portal.id,
        portalName: portal.name,
        invoiceNumber: null,
        billedNetMinor: bill.netMinor,
        billedTotalMinor: bill.totalMinor,
        wholesaleMinor,
        marginMinor: bill.netMinor - wholesaleMinor,
      });
    }
  } else {
    for (const portalId of await listPortalsLinkedAt(db, reseller.id, end.toISOString())) {
      await closeMonth(db, issuer, portalId, year, m, now);
    }
    customers = (await listResellerBills(db, reseller.id, year, m)).map((row) => ({
      portalId: row.portal_id,
      portalName: row.portal_name,
      invoiceNumber: row.invoice_number,
      billedNetMinor: Number(row.net_minor),
      billedTotalMinor: Number(row.total_minor),
      wholesaleMinor: Number(row.wholesale_minor),
      marginMinor: Number(row.net_minor) - Number(row.wholesale_minor),
    }));
  }
  return {
    year,
    month: m,
    status: end > now ? 'open' : 'closed',
    currency: BILLING_CURRENCY,
    firstYear: first.year,
    firstMonth: first.month,
    customers,
    totals: sumRows(customers),
  };
}

function requireOwner(portal: { owner_user_id: string }, userId: string) {
  if (portal.owner_user_id !== userId) {
    throw AppError.forbidden("Only the portal's owner links, unlinks or trusts a reseller");
  }
}

function toPortalReseller(link: {
  reseller_id: string;
  reseller_name: string;
  allow_acting: number;
  linked_at: Date | string;
}): PortalReseller {
  return {
    _id: link.reseller_id,
    name: link.reseller_name,
    allowActing: Number(link.allow_acting) === 1,
    linkedAt: toIso(link.linked_at),
  };
}

/** POST portal/reseller (the owner): links the portal to the reseller with that code. */
export async function linkReseller(
  db: Database,
  context: ChangeContext,
  input: { code: string; allowActing: boolean },
): Promise<PortalReseller> {
  return db.transaction().execute(async (trx) => {
    const portal = (await findPortalById(trx, context.portalId))!;
    requireOwner(portal, context.actorUserId);
    const reseller = await findResellerByCode(trx, input.code);
    if (!reseller) {
      const message = 'is not the code of any reseller';
      throw AppError.badRequest(`code ${message}`, [{ path: 'body.code', message }]);
    }
    if (await findCurrentLink(trx, context.portalId)) {
      throw AppError.conflict('This portal is linked to a reseller already; unlink it first');
    }
    const now = nowIso();
    await insertLink(trx, {
      id: crypto.randomUUID(),
      portal_id: context.portalId,
      reseller_id: reseller.id,
      allow_acting: input.allowActing ? 1 : 0,
      linked_at: now,
      unlinked_at: null,
    });
    await recordChange(trx, context, {
      action: 'reseller.link',
      entityType: 'reseller_link',
      entityId: reseller.id,
      after: { reseller: reseller.name, allowActing: input.allowActing },
    });
    return toPortalReseller((await findCurrentLink(trx, context.portalId))!);
  });
}

async function requireCurrentLink(db: Database, portalId: string) {
  const link = await findCurrentLink(db, portalId);
  if (!link) throw new AppError('not_found', 'This portal is not linked to a reseller', 404);
  return link;
}

/**
 * POST portal/reseller/acting (the owner): lets the reseller act in the portal, or stops it; stopping
 * it ends the memberships it added while acting (reseller-memberships.ts).
 */
export async function setResellerActing(
  db: Database,
  context: ChangeContext,
  allowActing: boolean,
): Promise<PortalReseller> {
  return changeAccess(db, async (trx, touch) => {
    requireOwner((await findPortalById(trx, context.portalId))!, context.actorUserId);
    const link = await requireCurrentLink(trx, context.portalId);
    await setLinkActing(trx, context.portalId, link.id, allowActing);
    if (!allowActing) {
      await endResellerMadeMemberships(trx, touch, context, link.reseller_id, 'acting stopped');
    }
    await recordChange(trx, context, {
      action: 'reseller.acting',
      entityType: 'reseller_link',
      entityId: link.reseller_id,
      before: { allowActing: Number(link.allow_acting) === 1 },
      after: { allowActing },
    });
    return toPortalReseller((await findCurrentLink(trx, context.portalId))!);
  });
}

/**
 * DELETE portal/reseller (the owner): ends the link, and the memberships the reseller added while
 * acting (reseller-memberships.ts); the reseller keeps the months it had.
 */
export async function unlinkReseller(db: Database, context: ChangeContext): Promise<void> {
  await changeAccess(db, async (trx, touch) => {
    requireOwner((await findPortalById(trx, context.portalId))!, context.actorUserId);
    const link = await requireCurrentLink(trx, context.portalId);
    await endLink(trx, context.portalId, link.id, nowIso());
    await endResellerMadeMemberships(trx, touch, context, link.reseller_id, 'unlinked');
    await recordChange(trx, context, {
      action: 'reseller.unlink',
      entityType: 'reseller_link',
      entityId: link.reseller_id,
      before: { reseller: link.reseller_name },
    });
  });
}
