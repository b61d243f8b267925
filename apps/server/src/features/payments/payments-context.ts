import type { FastifyBaseLogger } from 'fastify';
import type { PaymentProvider } from './payment-provider';
import type { SandboxProvider } from './sandbox-provider';

/** What the money features need: the provider in use, where people reach the portal, the log. */
export interface Payments {
  provider: PaymentProvider;
  /** The built-in sandbox, when it is the provider (its hosted pages and clock). */
  sandbox: SandboxProvider | null;
  /** PUBLIC_URL: success, cancel and mail links. */
  publicUrl: string;
  /** How long a checkout (and the stock it holds) stays open. */
  checkoutExpiryMinutes: number;
  log: FastifyBaseLogger;
}
