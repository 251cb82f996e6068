import type { Tx } from '../../db/connection.js';

/**
 * Text messages (issue 33): one interface, a deterministic simulator by default (messages kept
 * in `outbox_sms`, shown beside the emails in the ops outbox) and a GOV.UK Notify client
 * (client.ts) when NOTIFY_API_KEY is set.
 */
export interface SmsMessage {
  /** E.164, e.g. +447700900123 (normalised with the domain's phone rules). */
  to: string;
  /** The text as the simulator keeps it (Notify renders its template from `personalisation`). */
  body: string;
  /** The Notify template (one per kind of message). */
  templateId: string;
  personalisation: Record<string, string>;
  /** The sender's brand name (the customer's). */
  brand: string;
  /** Ours, echoed by Notify (the case's). */
  reference: string;
}

/** Where a send runs: the job's transaction (the simulator writes its row in it; required). */
export interface SmsContext {
  tx: Tx;
}

export interface SmsProvider {
  /** The provider's template ids per kind of message. */
  templates: { reminder: string };
  /** Sends one message; throws SmsError on a refusal (the job retries, then lists it dead). */
  send(m: SmsMessage, ctx?: SmsContext): Promise<void>;
}

/** The provider refused the message (a bad number, credentials, a temporary failure). */
export class SmsError extends Error {
  constructor(
    message: string,
    /** True when trying again later may work (5xx, rate limits, network). */
    readonly temporary: boolean,
  ) {
    super(message);
    this.name = 'SmsError';
  }
}
