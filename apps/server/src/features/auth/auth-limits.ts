import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { AppError } from '../../http/errors';

export interface AuthLimitSettings {
  loginPerIp: number;
  loginPerEmail: number;
  signupPerIp: number;
}

/**
 * Brute-force brakes on the auth routes: every sign-in attempt counts against the caller's
 * address, failed ones also against the email tried; sign-ups count against the address.
 */
export class AuthLimits {
  private readonly loginByIp: RateLimiterMemory;
  private readonly failuresByEmail: RateLimiterMemory;
  private readonly signupByIp: RateLimiterMemory;

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
