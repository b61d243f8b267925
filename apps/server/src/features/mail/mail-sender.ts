import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database';
import type { MailRow } from '../../db/schema';
import { listDueMail, markMailAttemptFailed, markMailSent } from './mail.repository';

/** What the sender hands a message to: SMTP (nodemailer) or the dev mailbox. */
export interface MailTransport {
  readonly name: string;
  send(message: { from: string; to: string; subject: string; text: string; html: string }): Promise<void>;
}

/** SMTP through nodemailer, for SMTP_URL. */
export function smtpTransport(url: string): MailTransport {
  const transporter = nodemailer.createTransport(url);
  return {
    name: 'smtp',
    async send(message) {
      await transporter.sendMail(message);
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

/** Attempts before giving up; waits grow 30 s, 1 min, 2 min, … capped at 1 h. */
export const MAX_MAIL_ATTEMPTS = 8;
export function retryDelayMs(attemptsSoFar: number): number {
  return Math.min(30_000 * 2 ** attemptsSoFar, 60 * 60_000);
}

/**
 * Sends queued mail with retries and back-off. Messages are written to the outbox in the
 * transaction that causes them, so a crash loses none; one sent twice after a crash between
 * sending and marking is the accepted cost of at-least-once delivery.
 */
export class MailSender {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;

  constructor(
    private readonly db: Database,
    private readonly transport: MailTransport,
    private readonly from: string,
    private readonly log: FastifyBaseLogger,
  ) {}

  get transportName(): string {
    return this.transport.name;
  }

  /** Sends every due message once; answers how many went out. Concurrent calls share one run. */
  sendDue(): Promise<number> {
    this.running ??= this.sendBatch().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async sendBatch(): Promise<number> {
    let sent = 0;
    for (const mail of await listDueMail(this.db, 50)) {
      if (await this.attempt(mail)) sent++;
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
        html: mail.html_body,
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
