import { createNotifyClient } from './client.js';
import type { SmsProvider } from './provider.js';
import { createSmsSimulator } from './simulator.js';

/** The Notify template of a case reminder (NOTIFY_SMS_REMINDER_TEMPLATE overrides it; the simulator keeps it). */
export const DEFAULT_REMINDER_TEMPLATE = 'kestrel-case-reminder';

export interface SmsSettings {
  /** Set: GOV.UK Notify; absent: the simulator. */
  notifyApiKey?: string | undefined;
  notifyBaseUrl?: string | undefined;
  /** The Notify template id of a case reminder. */
  reminderTemplateId?: string | undefined;
}

/** The SMS provider of these settings (from NOTIFY_API_KEY, NOTIFY_BASE_URL). */
export function createSmsProvider(s: SmsSettings): SmsProvider {
  const templates = { reminder: s.reminderTemplateId || DEFAULT_REMINDER_TEMPLATE };
  return s.notifyApiKey
    ? createNotifyClient({
        apiKey: s.notifyApiKey,
        templates,
        ...(s.notifyBaseUrl ? { baseUrl: s.notifyBaseUrl } : {}),
      })
    : createSmsSimulator(templates);
}

/** The settings read from the environment. */
export function smsSettingsFromEnv(env: NodeJS.ProcessEnv): SmsSettings {
  return {
    notifyApiKey: env.NOTIFY_API_KEY,
    notifyBaseUrl: env.NOTIFY_BASE_URL,
    reminderTemplateId: env.NOTIFY_SMS_REMINDER_TEMPLATE,
  };
}

export type { SmsMessage, SmsProvider } from './provider.js';
export { SmsError } from './provider.js';
