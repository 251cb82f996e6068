import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { outboxSms } from '../../modules/reminders/reminders.table.js';
import { createSmsProvider } from './index.js';
import { SmsError } from './provider.js';
import { createSmsSimulator, SIMULATOR_REFUSAL } from './simulator.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ config: { jobWorkers: false } });
});
afterAll(() => t.close());

const message = (to: string) => ({
  to,
  body: 'Harrier Vetting: Acme is waiting for you.',
  templateId: 'reminder',
  personalisation: {},
  brand: 'Harrier Vetting',
  reference: 'case-3',
});

describe('the SMS simulator (the default provider)', () => {
  it('keeps a delivered message in outbox_sms, in the given transaction', async () => {
    const sms = createSmsSimulator();
    await t.owner((tx) => sms.send(message('+447911123456'), { tx }));
    const rows = await t.owner((tx) =>
      tx.select().from(outboxSms).where(eq(outboxSms.reference, 'case-3')),
    );
    expect(rows).toMatchObject([
      { to: '+447911123456', brand: 'Harrier Vetting', body: message('').body },
    ]);
    await expect(sms.send(message('+447911123456'))).rejects.toThrow(/transaction/);
  });

  it('refuses for good a number ending in 0999 (documented outcome), keeping nothing', async () => {
    const sms = createSmsSimulator();
    const err = await t
      .owner((tx) => sms.send({ ...message('+447911120999'), reference: 'refused' }, { tx }))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SmsError);
    expect(err).toMatchObject({ message: SIMULATOR_REFUSAL, temporary: false });
    const rows = await t.owner((tx) =>
      tx.select().from(outboxSms).where(eq(outboxSms.reference, 'refused')),
    );
    expect(rows).toEqual([]);
  });

  it('is the provider without NOTIFY_API_KEY; Notify with one', () => {
    expect(createSmsProvider({}).templates).toEqual({ reminder: 'kestrel-case-reminder' });
    const notify = createSmsProvider({
      notifyApiKey: `k-${'a'.repeat(36)}-${'b'.repeat(36)}`,
      reminderTemplateId: 'tpl-1',
    });
    expect(notify.templates).toEqual({ reminder: 'tpl-1' });
    expect(t.app.deps.sms.templates.reminder).toBe('kestrel-case-reminder');
  });
});
