import nodemailer from 'nodemailer';
import type { Database } from '../db/connection.js';
import { outboxEmails } from '../modules/outbox/outbox.table.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/** The mail provider interface. Called after the transaction that decided to send commits. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/** Default provider: every email lands in the local outbox table (`/api/ops/outbox/`). */
export class OutboxMailer implements Mailer {
  constructor(private readonly db: Database) {}
  async send(m: MailMessage): Promise<void> {
    await this.db.transaction({ scope: 'all', customerId: null }, (tx) =>
      tx.insert(outboxEmails).values({
        to: m.to,
        subject: m.subject,
        text: m.text,
        html: m.html ?? null,
      }),
    );
  }
}

/** SMTP provider (SMTP_URL, e.g. smtp://user:pass@host:587). */
export class SmtpMailer implements Mailer {
  private readonly transport;
  constructor(
    url: string,
    private readonly from: string,
  ) {
    this.transport = nodemailer.createTransport(url);
  }
  async send(m: MailMessage): Promise<void> {
    await this.transport.sendMail({
      from: this.from,
      to: m.to,
      subject: m.subject,
      text: m.text,
      ...(m.html ? { html: m.html } : {}),
    });
  }
}

export function createMailer(db: Database, smtpUrl: string | null, from: string): Mailer {
  return smtpUrl ? new SmtpMailer(smtpUrl, from) : new OutboxMailer(db);
}
