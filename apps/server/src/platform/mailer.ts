import nodemailer from 'nodemailer';
import type { ServiceContext } from './service-context.js';
import { outboxEmails } from './tables/outbox.table.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** The sender's display name (the brand's); the address stays MAIL_FROM's. */
  fromName?: string;
}

/**
 * The mail provider interface. Called by the send-email job (src/jobs/send-email.ts), never
 * during a request: enqueue `emailJob(message)` in the transaction that decides to send.
 */
export interface Mailer {
  /**
   * Sends `message` from the job's service context: a provider that writes rows does so in its
   * transaction; one that talks to a server does so once it has committed (never holding a
   * transaction open on the network), and its failure still fails the job.
   */
  send(message: MailMessage, ctx: MailContext): Promise<void>;
}

/** What a provider may use of the send-email job's service context. */
export type MailContext = Pick<ServiceContext, 'tx' | 'afterCommit'>;

/** Default provider: every email lands in the local outbox table (`/api/ops/outbox/`). */
export class OutboxMailer implements Mailer {
  async send(m: MailMessage, { tx }: MailContext): Promise<void> {
    await tx.insert(outboxEmails).values({
      to: m.to,
      subject: m.subject,
      text: m.text,
      html: m.html ?? null,
    });
  }
}

/** SMTP provider (SMTP_URL, e.g. smtp://user:pass@host:587). */
export class SmtpMailer implements Mailer {
  private readonly transport;
  constructor(
    url: string,
    private readonly from: string,
    /** Connecting, the greeting and each answer: a silent server fails the send (retried). */
    timeoutMs = 15_000,
  ) {
    // Options beside a URL are ignored by nodemailer: the timeouts travel in its query (a
    // timeout the URL sets itself wins).
    const withTimeouts = new URL(url);
    for (const key of ['connectionTimeout', 'greetingTimeout', 'socketTimeout']) {
      if (!withTimeouts.searchParams.has(key)) {
        withTimeouts.searchParams.set(key, String(timeoutMs));
      }
    }
    this.transport = nodemailer.createTransport(withTimeouts.toString());
  }
  async send(m: MailMessage, ctx: MailContext): Promise<void> {
    ctx.afterCommit(async () => {
      await this.transport.sendMail({
        from: m.fromName ? { name: m.fromName, address: addressOf(this.from) } : this.from,
        to: m.to,
        subject: m.subject,
        text: m.text,
        ...(m.html ? { html: m.html } : {}),
      });
    });
  }
}

/** The address of 'Name <address>' (or the whole text when it is a bare address). */
export function addressOf(from: string): string {
  return /<([^>]+)>/.exec(from)?.[1] ?? from.trim();
}

export function createMailer(smtpUrl: string | null, from: string, timeoutMs?: number): Mailer {
  return smtpUrl ? new SmtpMailer(smtpUrl, from, timeoutMs) : new OutboxMailer();
}
