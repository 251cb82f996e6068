import { outboxSms } from '../../modules/reminders/reminders.table.js';
import { SmsError, type SmsProvider } from './provider.js';

/**
 * The simulator's documented outcomes (deterministic, by the number's last digits):
 * - ending in 0999: refused for good ('The number is not a mobile number.'), so the job fails
 *   and, its retries spent, is listed dead at /ops/jobs;
 * - anything else: delivered, kept in `outbox_sms` (ops outbox, Text messages).
 */
export const SIMULATOR_REFUSED_SUFFIX = '0999';
export const SIMULATOR_REFUSAL = 'The number is not a mobile number.';

export function createSmsSimulator(templates = { reminder: 'reminder' }): SmsProvider {
  return {
    templates,
    async send(m, ctx) {
      if (!ctx) throw new Error('the SMS simulator keeps its messages in a transaction');
      if (m.to.endsWith(SIMULATOR_REFUSED_SUFFIX)) throw new SmsError(SIMULATOR_REFUSAL, false);
      await ctx.tx.insert(outboxSms).values({
        to: m.to,
        body: m.body,
        templateId: m.templateId,
        brand: m.brand.slice(0, 100),
        reference: m.reference.slice(0, 100),
      });
    },
  };
}
