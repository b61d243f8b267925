import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { UserRow } from '../../db/schema';
import { AppError } from '../http/errors';
import { asRateLimited, type RateLimitStore } from '../rate-limits/rate-limiters';
import type { OutgoingMail } from './mail.repository';

// Mail that a person makes the portal send to someone else (guest invites, invitations, a stay's
// mails to its guest, review requests) would otherwise make the portal a spam relay. `sendMail`
// (send-mail.ts, kind `to-others`) refuses an account whose address is not confirmed and counts the
// mail here, per recipient, per sender and per portal. System mail to a person's own address
// (verification, reset, email change) keeps its own limits (AuthLimits) and is not counted here,
// so invitations cannot block someone's reset.

export interface MailLimitSettings {
  /** Mails to one address per hour, from all portals. */
  perRecipientPerHour: number;
  /** Mails one person causes per hour. */
  perSenderPerHour: number;
  /** Mails one portal causes per day. */
  perPortalPerDay: number;
}

/** 403 unless the person's own address is confirmed: only then may they make the portal mail others. */
export function assertMaySendInvitations(sender: Pick<UserRow, 'email_verified_at'>): void {
  if (!sender.email_verified_at) {
    throw AppError.forbidden(
      'Confirm your email address before the portal mails others for you (invitations, guests): follow the link we mailed you, or ask for a new one in your settings',
    );
  }
}

/** A mail a person sends to someone else through the portal. */
export type PersonMail = OutgoingMail & { portalId: string };

/** Per-recipient, per-sender and per-portal limits on mail people send to others. */
export class MailThrottle {
  private readonly byRecipient: RateLimiterAbstract;
  private readonly bySender: RateLimiterAbstract;
  private readonly byPortal: RateLimiterAbstract;

  constructor(settings: MailLimitSettings, store: RateLimitStore) {
    this.byRecipient = store.limiter({
      keyPrefix: 'mail-recipient',
      points: settings.perRecipientPerHour,
      duration: 3600,
    });
    this.bySender = store.limiter({
      keyPrefix: 'mail-sender',
      points: settings.perSenderPerHour,
      duration: 3600,
    });
    this.byPortal = store.limiter({
      keyPrefix: 'mail-portal',
      points: settings.perPortalPerDay,
      duration: 86_400,
    });
  }

  /**
   * Counts one mail against each limit; 429 when one is used up, and then the counts already
   * taken for this mail are given back, so a refused mail costs nothing.
   */
  async count(mail: { portalId: string; senderId: string; to: string }): Promise<void> {
    const counted: Array<[RateLimiterAbstract, string]> = [];
    const limits: Array<[RateLimiterAbstract, string]> = [
      [this.byRecipient, mail.to.trim().toLowerCase()],
      [this.bySender, mail.senderId],
      [this.byPortal, mail.portalId],
    ];
    try {
      for (const [limiter, key] of limits) {
        await limiter.consume(key);
        counted.push([limiter, key]);
      }
    } catch (rejection) {
      await Promise.all(counted.map(([limiter, key]) => limiter.reward(key)));
      throw asRateLimited(rejection);
    }
  }
}
