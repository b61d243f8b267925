import type { Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database';
import type { MailRow } from '../../db/schema';
import { claimDueMail, markMailAttemptFailed, markMailSent } from './mail.repository';
import { absoluteMailImages } from './mail.templates';

/** What the sender hands a message to: SMTP (nodemailer) or the dev mailbox. */
export interface MailTransport {
  readonly name: string;
  send(message: {
    from: string;
    to: string;
    subject: string;
    text: string;
    html: string;
    attachments?: { filename: string; contentType: string; content: Buffer }[];
  }): Promise<void>;
}

/**
 * nodemailer's limits for one SMTP attempt (its defaults let an idle socket hang for 10 minutes):
 * an attempt ends within about LONGEST_SEND_MS, well inside the lease on the message it sends.
 */
const SMTP_TIMEOUTS = { connectionTimeout: 30_000, greetingTimeout: 30_000, socketTimeout: 60_000 };
const LONGEST_SEND_MS = 2 * 60_000;

/** SMTP through nodemailer, for SMTP_URL (loaded on the first mail: it costs 50 ms at every start). */
export function smtpTransport(url: string): MailTransport {
  let transporter: Promise<Transporter> | undefined;
  return {
    name: 'smtp',
    async send(message) {
      transporter ??= import('nodemailer').then((nodemailer) =>
        nodemailer.default.createTransport({ ...SMTP_TIMEOUTS, url }),
      );
      await (await transporter).sendMail(message);
    },
  };
}

/**
 * The dev mailbox: with no SMTP server the messages stay in the outbox table, and the log shows
 * each one with its links so a developer can follow them.
 */
export function devMailboxTransport(log: FastifyBaseLogger): MailTransport {
  return {
    name: 'dev mailbox',
    async send(message) {
      const links = message.text.match(/https?:\/\/\S+/g) ?? [];
      log.info({ to: message.to, subject: message.subject, links }, 'mail kept in the dev mailbox');
    },
  };
}

/** The files stored with a queued mail (mail.repository.ts `enqueueMail`), for nodemailer. */
function attachmentsOf(json: string): { filename: string; contentType: string; content: Buffer }[] {
  const stored = JSON.parse(json) as { filename: string; contentType: string; base64: string }[];
  return stored.map((file) => ({
    filename: file.filename,
    contentType: file.contentType,
    content: Buffer.from(file.base64, 'base64'),
  }));
}

/** Attempts before giving up; waits grow 30 s, 1 min, 2 min, … capped at 1 h. */
export const MAX_MAIL_ATTEMPTS = 8;
export function retryDelayMs(attemptsSoFar: number): number {
  return Math.min(30_000 * 2 ** attemptsSoFar, 60 * 60_000);
}

/** How long a claimed message is this server's alone to send; if it dies, another sends it after. */
export const MAIL_LEASE_MS = 10 * 60_000;
/** Messages claimed at a time, so a slow SMTP server holds few of them. */
const CLAIM_BATCH = 10;
/** At most this many messages per run; the next tick takes the rest. */
const MAX_PER_RUN = 500;

/**
 * Sends queued mail with retries and back-off. Messages are written to the outbox in the
 * transaction that causes them, so a crash loses none. Several servers may share the outbox: each
 * claims the messages it sends (`claimDueMail`), so every message is sent by one of them, once;
 * only a crash between sending and marking it sent has it sent again after the lease (the accepted
 * cost of at-least-once delivery).
 */
export class MailSender {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;

  constructor(
    private readonly db: Database,
    private readonly transport: MailTransport,
    private readonly from: string,
    private readonly log: FastifyBaseLogger,
    /** PUBLIC_URL: where a mail's site-relative images (the brand's logo) are fetched from. */
    private readonly publicUrl: string | null = null,
  ) {}

  get transportName(): string {
    return this.transport.name;
  }

  /** Sends every due message once; answers how many went out. Concurrent calls share one run. */
  sendDue(): Promise<number> {
    this.running ??= this.sendBatches().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async sendBatches(): Promise<number> {
    let sent = 0;
    for (let handled = 0; handled < MAX_PER_RUN;) {
      const claimedAt = Date.now();
      const batch = await claimDueMail(this.db, CLAIM_BATCH, MAIL_LEASE_MS);
      for (const mail of batch) {
        // A send that might outlast the lease waits for it to end, when any server may take it.
        if (Date.now() - claimedAt > MAIL_LEASE_MS - LONGEST_SEND_MS) return sent;
        if (await this.attempt(mail)) sent++;
      }
      handled += batch.length;
      if (batch.length < CLAIM_BATCH) break;
    }
    return sent;
  }

  private async attempt(mail: MailRow): Promise<boolean> {
    try {
      await this.transport.send({
        from: this.from,
        to: mail.to_address,
        subject: mail.subject,
        text: mail.text_body,
        html: this.publicUrl ? absoluteMailImages(mail.html_body, this.publicUrl) : mail.html_body,
        ...(mail.attachments_json && { attachments: attachmentsOf(mail.attachments_json) }),
      });
      await markMailSent(this.db, mail.id);
      return true;
    } catch (error) {
      const attempts = mail.attempts + 1;
      const retryAt =
        attempts < MAX_MAIL_ATTEMPTS ? new Date(Date.now() + retryDelayMs(mail.attempts)) : null;
      this.log.warn({ err: error, mailId: mail.id, attempts, gaveUp: !retryAt }, 'mail not sent');
      await markMailAttemptFailed(this.db, mail.id, String((error as Error).message ?? error), retryAt);
      return false;
    }
  }

  start(intervalMs: number): void {
    if (intervalMs <= 0 || this.timer) return;
    this.timer = setInterval(() => {
      this.sendDue().catch((error: unknown) => this.log.error({ err: error }, 'mail sender failed'));
    }, intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }
}
