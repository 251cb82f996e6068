import {
  dueExpiryReminder,
  EXPIRY_REMINDER_DAYS,
  type ExpiryKind,
  expiryWindowEnd,
  formatDate,
} from '@kestrel/domain';
import { and, eq, gte, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import { emailJob } from '../../jobs/send-email.js';
import { jobActor } from '../../jobs/service-job.js';
import { recordAudit } from '../../platform/audit.js';
import { brandedEmail } from '../../platform/email-template.js';
import type { JobKind } from '../../platform/jobs.js';
import { runAsSystem, runInTenant, type ServiceContext } from '../../platform/service-context.js';
import { customers } from '../customers/customers.table.js';
import { SUBJECT_CT } from '../subjects/subjects.service.js';
import { subjects } from '../subjects/subjects.table.js';
import { customerEmailSite } from '../users/users.service.js';
import { subjectUsers } from '../users/users.table.js';
import { type ExpiryItem, expiringItems } from './expiry-calendar.service.js';
import { expiryReminders } from './expiry-reminders.table.js';

const day = (d: Date) => d.toISOString().slice(0, 10);

/** The subject's words for what runs out. */
const SUBJECT_WORDS: Record<ExpiryKind, string> = {
  'dvla-consent': 'your consent for driving licence checks (the DVLA mandate)',
  passport: 'your passport',
  'driving-licence': 'your driving licence',
  'right-to-work': 'your right to work in the UK',
  licence: 'your licence',
};

async function wantsMessages(ctx: ServiceContext, subjectId: number): Promise<boolean> {
  const [row] = await ctx.tx
    .select({ on: subjectUsers.dbsEmailNotifications })
    .from(subjects)
    .innerJoin(subjectUsers, eq(subjectUsers.id, subjects.userId))
    .where(eq(subjects.id, subjectId));
  return row?.on ?? true;
}

/**
 * The reminders of one customer due today (its tenant, as the system): each item of the calendar
 * within the widest step whose step is due (dueExpiryReminder) is recorded under its unique key
 * first (a second process, or a second run, finds it there and sends nothing), then the subject
 * is emailed (a DVLA mandate: asked to re-consent, with the link) unless it turned the product's
 * emails off, audited; the customer's administrators get one email listing the day's items.
 * Returns how many items were reminded.
 */
export async function remindCustomer(
  ctx: ServiceContext,
  deps: { publicUrl: string },
  customerId: number,
): Promise<number> {
  const { tx } = ctx;
  const now = ctx.clock.now();
  const today = day(now);
  const widest = Math.max(...EXPIRY_REMINDER_DAYS);
  const items = await expiringItems(tx, today, expiryWindowEnd(today, widest));
  if (items.length === 0) return 0;
  const sentRows = await tx
    .select({
      kind: expiryReminders.kind,
      key: expiryReminders.itemKey,
      on: expiryReminders.expiresOn,
      step: expiryReminders.step,
    })
    .from(expiryReminders)
    .where(gte(expiryReminders.expiresOn, today));
  const sent = new Map<string, number[]>();
  for (const r of sentRows) {
    const k = `${r.kind}|${r.key}|${r.on}`;
    sent.set(k, [...(sent.get(k) ?? []), r.step]);
  }
  const site = await customerEmailSite(tx, customerId, undefined, deps.publicUrl);
  const [org] = await tx
    .select({ name: customers.name })
    .from(customers)
    .where(eq(customers.id, customerId));
  const orgName = org?.name ?? 'your organisation';
  const reminded: { item: ExpiryItem; step: number }[] = [];
  for (const item of items) {
    const step = dueExpiryReminder(
      item.expires_on,
      today,
      sent.get(`${item.kind}|${item.key}|${item.expires_on}`) ?? [],
    );
    if (step === null) continue;
    const [row] = await tx
      .insert(expiryReminders)
      .values({
        customerId,
        kind: item.kind,
        itemKey: item.key,
        subjectId: item.subject_id,
        expiresOn: item.expires_on,
        step,
        sentAt: now,
      })
      .onConflictDoNothing()
      .returning({ id: expiryReminders.id });
    if (!row) continue;
    const emailed = await wantsMessages(ctx, item.subject_id);
    if (emailed) await ctx.enqueue(emailJob(subjectMail(site, orgName, item)));
    await recordAudit(tx, ctx.actor, {
      verb: 'reminder_sent',
      contentType: SUBJECT_CT,
      objectId: item.subject_id,
      objectRepr: `${item.subject_name}: ${item.kind_label} expires ${item.expires_on}`.slice(
        0,
        200,
      ),
      changes: {
        expiry: item.kind,
        expires_on: item.expires_on,
        days_before: step,
        case: item.case_id,
        to: emailed ? item.subject_email : null,
      },
    });
    reminded.push({ item, step });
  }
  if (reminded.length > 0) await mailAdministrators(ctx, site, customerId, reminded);
  return reminded.length;
}

export type Site = Awaited<ReturnType<typeof customerEmailSite>>;

function subjectMail(site: Site, org: string, item: ExpiryItem) {
  const what = SUBJECT_WORDS[item.kind];
  const when = formatDate(item.expires_on);
  if (item.kind === 'dvla-consent') {
    return brandedEmail(site, {
      to: item.subject_email,
      subject: 'Please renew your consent for driving licence checks',
      greeting: `Hello ${item.subjectFirstName},`,
      paragraphs: [
        `${what[0]?.toUpperCase()}${what.slice(1)}, given for ${org}, ends on ${when}. Without it ${org} can no longer check your driving licence.`,
        'Renewing it takes a minute: sign in and confirm your consent for three more years.',
      ],
      action: { label: 'Renew my consent', url: `${site.publicUrl}/s/dvla-reconsent` },
    });
  }
  return brandedEmail(site, {
    to: item.subject_email,
    subject: `${item.kind_label} expires on ${when}`,
    greeting: `Hello ${item.subjectFirstName},`,
    paragraphs: [
      `Our records for ${org} show that ${what} expires on ${when}.`,
      `When you have a new one, ${org} may ask you to show it. Please contact ${org} if the date is wrong.`,
    ],
  });
}

/**
 * The customer's active administrators (who may change the customer) who take the product's
 * emails: whom the calendar's reminders and a subject's renewed DVLA mandate are told to.
 */
export async function customerAdministrators(
  ctx: ServiceContext,
  customerId: number,
): Promise<{ email: string; name: string }[]> {
  const rows = await ctx.tx.execute<{ email: string; name: string }>(sql`
    select distinct pu.email, trim(pu.first_name || ' ' || pu.last_name) as name
    from product_users pu
    join product_user_roles ur on ur.user_id = pu.id
    join roles r on r.id = ur.role_id
    where pu.customer_id = ${customerId} and pu.is_active and pu.notifications
      and 'customers.change_customer' = any(r.permissions)`);
  return [...rows];
}

/** One email to the customer's administrators listing the items reminded today. */
async function mailAdministrators(
  ctx: ServiceContext,
  site: Site,
  customerId: number,
  reminded: { item: ExpiryItem; step: number }[],
) {
  const admins = await customerAdministrators(ctx, customerId);
  const lines = reminded.map(
    ({ item }) =>
      `${formatDate(item.expires_on)}: ${item.kind_label}, ${item.subject_name}${item.case_id ? ` (case ${item.case_id})` : ''}`,
  );
  for (const a of admins) {
    await ctx.enqueue(
      emailJob(
        brandedEmail(site, {
          to: a.email,
          subject:
            reminded.length === 1 ? '1 item expires soon' : `${reminded.length} items expire soon`,
          greeting: `Hello ${a.name || a.email},`,
          paragraphs: [
            'These consents, documents and licences of your subjects expire soon; each subject has been reminded.',
            lines.join('\n'),
          ],
          action: { label: 'Open the expiry calendar', url: `${site.publicUrl}/expiry-calendar` },
        }),
      ),
    );
  }
}

/**
 * Sends the expiry calendar's reminders due today, for every customer (or `customerId` only), each
 * in its own tenant transaction as the system actor. Returns how many items were reminded.
 */
export async function runExpiryReminders(
  deps: Pick<AppDeps, 'db' | 'clock' | 'config'>,
  customerId?: number,
): Promise<{ reminders: number }> {
  const ids = await runAsSystem(deps, ({ tx }) =>
    tx
      .select({ id: customers.id })
      .from(customers)
      .where(customerId === undefined ? sql`true` : and(eq(customers.id, customerId))),
  );
  let reminders = 0;
  for (const { id } of ids) {
    reminders += await runInTenant(deps, jobActor(id), (ctx) =>
      remindCustomer(ctx, { publicUrl: deps.config.publicUrl }, id),
    );
  }
  return { reminders };
}

/** The queue's schedule of runExpiryReminders: every morning at 07:00 (UTC). */
export const expiryRemindersJob: JobKind<Record<string, never>, AppDeps> = {
  name: 'expiry-reminders',
  payload: z.object({}).strict(),
  retry: { limit: 2, delaySeconds: 300, backoff: true },
  expireInSeconds: 3600,
  cron: () => '0 7 * * *',
  handle: async (_data, deps) => {
    await runExpiryReminders(deps);
  },
};
