import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { AppError } from '../../http/errors';

export interface AuthLimitSettings {
  loginPerIp: number;
  loginPerEmail: number;
  signupPerIp: number;
  /** Verification and reset mails per email address per 15 minutes. */
  accountMailPerEmail?: number;
}

/**
 * Brute-force brakes on the auth routes: every sign-in attempt counts against the caller's
 * address, failed ones also against the email tried; sign-ups count against the address.
 */
export class AuthLimits {
  private readonly loginByIp: RateLimiterMemory;
  private readonly failuresByEmail: RateLimiterMemory;
  private readonly signupByIp: RateLimiterMemory;
  private readonly accountMailByEmail: RateLimiterMemory;
  private readonly accountMailByIp: RateLimiterMemory;
  private readonly passwordChecksByUser: RateLimiterMemory;
  private readonly secondFactorFailures: RateLimiterMemory;

  constructor(settings: AuthLimitSettings) {
    this.loginByIp = new RateLimiterMemory({
      keyPrefix: 'login-ip',
      points: settings.loginPerIp,
      duration: 300,
    });
    this.failuresByEmail = new RateLimiterMemory({
      keyPrefix: 'login-email',
      points: settings.loginPerEmail,
      duration: 900,
    });
    this.signupByIp = new RateLimiterMemory({
      keyPrefix: 'signup-ip',
      points: settings.signupPerIp,
      duration: 3600,
    });
    // Counted whether or not the account exists, so the limit itself tells nothing.
    this.accountMailByEmail = new RateLimiterMemory({
      keyPrefix: 'account-mail-email',
      points: settings.accountMailPerEmail ?? 3,
      duration: 900,
    });
    this.accountMailByIp = new RateLimiterMemory({
      keyPrefix: 'account-mail-ip',
      points: 30,
      duration: 3600,
    });
    this.secondFactorFailures = new RateLimiterMemory({
      keyPrefix: 'second-factor',
      points: 5,
      duration: 300,
    });
    this.passwordChecksByUser = new RateLimiterMemory({
      keyPrefix: 'password-check',
      points: 10,
      duration: 900,
    });
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

  /** Counts a sign-in attempt; 429 when the address or the email has used up its attempts. */
  async countLoginAttempt(ip: string, email: string): Promise<void> {
    await consume(this.loginByIp, ip);
    const failures = await this.failuresByEmail.get(email);
    if (failures && failures.remainingPoints <= 0) throw AppError.rateLimited(failures.msBeforeNext / 1000);
  }

  async countLoginFailure(email: string): Promise<void> {
    await this.failuresByEmail.penalty(email, 1);
  }

  async clearLoginFailures(email: string): Promise<void> {
    await this.failuresByEmail.delete(email);
  }

  async countSignup(ip: string): Promise<void> {
    await consume(this.signupByIp, ip);
  }
}

async function consume(limiter: RateLimiterMemory, key: string): Promise<void> {
  try {
    await limiter.consume(key);
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) throw AppError.rateLimited(rejection.msBeforeNext / 1000);
    throw rejection;
  }
}
