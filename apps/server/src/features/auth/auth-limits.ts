import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { AppError } from '../../base/http/errors';
import { consume, type RateLimitStore } from '../../base/rate-limits/rate-limiters';

export interface AuthLimitSettings {
  loginPerIp: number;
  /** Failed sign-ins per account per 15 minutes, from one address and in all. */
  loginPerEmail: number;
  signupPerIp: number;
  /** Verification and reset mails per email address per 15 minutes. */
  accountMailPerEmail?: number;
}

/**
 * Brute-force brakes on the auth routes: every sign-in attempt counts against the caller's
 * address; failed ones also against the account tried, from that address and in all. Sign-ups
 * count against the address. Kept in Redis with REDIS_URL (rate-limiters.ts).
 *
 * Sign-in (OWASP's advice against locking the owner out): an address that has failed
 * `loginPerEmail` times for an account is refused for it. Once the account as a whole has that many
 * failures (someone is guessing from several places), only addresses that have not failed for it
 * are let through, so the owner signing in from their own place still can.
 */
export class AuthLimits {
  private readonly loginByIp: RateLimiterAbstract;
  private readonly failuresByAccountAndIp: RateLimiterAbstract;
  private readonly failuresByAccount: RateLimiterAbstract;
  private readonly signupByIp: RateLimiterAbstract;
  private readonly accountMailByEmail: RateLimiterAbstract;
  private readonly accountMailByIp: RateLimiterAbstract;
  private readonly passwordChecksByUser: RateLimiterAbstract;
  private readonly secondFactorFailures: RateLimiterAbstract;
  private readonly loginFailureLimit: number;

  constructor(settings: AuthLimitSettings, store: RateLimitStore) {
    this.loginFailureLimit = settings.loginPerEmail;
    this.loginByIp = store.limiter({ keyPrefix: 'login-ip', points: settings.loginPerIp, duration: 300 });
    this.failuresByAccountAndIp = store.limiter({
      keyPrefix: 'login-email-ip',
      points: settings.loginPerEmail,
      duration: 900,
    });
    this.failuresByAccount = store.limiter({
      keyPrefix: 'login-email',
      points: settings.loginPerEmail,
      duration: 900,
    });
    this.signupByIp = store.limiter({ keyPrefix: 'signup-ip', points: settings.signupPerIp, duration: 3600 });
    // Counted whether or not the account exists, so the limit itself tells nothing.
    this.accountMailByEmail = store.limiter({
      keyPrefix: 'account-mail-email',
      points: settings.accountMailPerEmail ?? 3,
      duration: 900,
    });
    this.accountMailByIp = store.limiter({ keyPrefix: 'account-mail-ip', points: 30, duration: 3600 });
    this.secondFactorFailures = store.limiter({ keyPrefix: 'second-factor', points: 5, duration: 300 });
    this.passwordChecksByUser = store.limiter({ keyPrefix: 'password-check', points: 10, duration: 900 });
  }

  /** Counts a request for a verification or reset mail. */
  async countAccountMail(ip: string, email: string): Promise<void> {
    await consume(this.accountMailByIp, ip);
    await consume(this.accountMailByEmail, email);
  }

  /** 429 once a person has had five wrong second-factor codes in five minutes. */
  async checkSecondFactorAllowed(userId: string): Promise<void> {
    const failures = await this.secondFactorFailures.get(userId);
    if (failures && failures.remainingPoints <= 0) throw AppError.rateLimited(failures.msBeforeNext / 1000);
  }

  async countSecondFactorFailure(userId: string): Promise<void> {
    await this.secondFactorFailures.penalty(userId, 1);
  }

  /** Counts a check of the signed-in person's password (passwordVerify) and a use of a link token. */
  async countPasswordCheck(key: string): Promise<void> {
    await consume(this.passwordChecksByUser, key);
  }

  /**
   * Counts a sign-in attempt; 429 when the address has used up its attempts, has failed too often
   * for this account, or has failed for it at all while the account is under attack.
   */
  async countLoginAttempt(ip: string, email: string): Promise<void> {
    await consume(this.loginByIp, ip);
    const [here, everywhere] = await Promise.all([
      this.failuresByAccountAndIp.get(accountAt(email, ip)),
      this.failuresByAccount.get(email),
    ]);
    if (!here || here.consumedPoints === 0) return; // an address that has not failed for the account
    if (here.consumedPoints >= this.loginFailureLimit) throw AppError.rateLimited(here.msBeforeNext / 1000);
    if (everywhere && everywhere.consumedPoints >= this.loginFailureLimit) {
      // Refused until either this address's failures or the account's run out of their window.
      throw AppError.rateLimited(Math.min(here.msBeforeNext, everywhere.msBeforeNext) / 1000);
    }
  }

  async countLoginFailure(ip: string, email: string): Promise<void> {
    await Promise.all([
      this.failuresByAccountAndIp.penalty(accountAt(email, ip), 1),
      this.failuresByAccount.penalty(email, 1),
    ]);
  }

  /**
   * A right password forgets this address's failures for the account. The account's total stays:
   * the owner signing in must not give an attacker elsewhere a fresh set of guesses.
   */
  async clearLoginFailures(ip: string, email: string): Promise<void> {
    await this.failuresByAccountAndIp.delete(accountAt(email, ip));
  }

  async countSignup(ip: string): Promise<void> {
    await consume(this.signupByIp, ip);
  }
}

const accountAt = (email: string, ip: string) => `${email} ${ip}`;
