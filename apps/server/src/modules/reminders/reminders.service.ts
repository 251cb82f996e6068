import {
  INVITATION_NOT_EXPIRED,
  invitationExpiresAt,
  isReminderTooSoon,
  mobileNumber,
  nextReminderAt,
  type ReminderSchedule,
} from '@kestrel/domain';
import { and, count, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { Tx } from '../../db/connection.js';
import { emailJob } from '../../jobs/send-email.js';
import { recordAudit } from '../../platform/audit.js';
import { NotFoundError, ValidationError } from '../../platform/errors.js';
import type { ServiceContext } from '../../platform/service-context.js';
import { accountTokens, sessions } from '../../platform/tables/sessions.table.js';
import { changeActivity } from '../activities/activities.service.js';
import { caseActivities } from '../activities/activities.table.js';
import { CASE_CT, caseRepr, lockCase } from '../cases/cases.service.js';
import { cases } from '../cases/cases.table.js';
import { processes } from '../processes/processes.table.js';
import { getSubject } from '../subjects/subjects.service.js';
import { subjects } from '../subjects/subjects.table.js';
import { subjectUsers } from '../users/users.table.js';
import { caseEmail, enqueueReminder, type ReminderDeps } from './reminder-message.js';
import { caseInvitations, caseReminders } from './reminders.table.js';

/** Where an activity waits for the customer once its invitation expired. */
export const EXPIRED_ACTIVITY_STATE = 'ca-awaiting-agent';

/** One piece of due work the system found: a reminder or an expiry of one case. */
export interface DueItem {
  customerId: number;
  caseId: number;
  kind: 'reminder' | 'expiry';
  /** The subject's login (its claim links expire with the invitation). */
  userId: number;
}

/**
 * The cases waiting for their subject whose process sends reminders or lets invitations expire,
 * with what the rules need, across customers (the system's context: it reads the subjects' last
 * sign-in activity, kept in `sessions`, with the clock of the request that touched them).
 */
export async function findDueWork(tx: Tx, now: Date): Promise<DueItem[]> {
  const lastSeen = sql<Date | null>`(select max(${sessions.lastSeenAt}) from ${sessions}
    where ${sessions.userType} = 'SubjectUser' and ${sessions.userId} = ${subjects.userId})`;
  const sent = sql<number>`(select count(*)::int from ${caseReminders}
    where ${caseReminders.customerId} = ${cases.customerId} and ${caseReminders.caseId} = ${cases.id}
      and ${caseReminders.round} = coalesce(${caseInvitations.round}, 0))`;
  const rows = await tx
    .select({
      customerId: cases.customerId,
      caseId: cases.id,
      createdAt: cases.createdAt,
      lastReminderAt: cases.lastReminderAt,
      schedule: processes.reminderSchedule,
      expiryDays: processes.invitationExpiryDays,
      invitedAt: caseInvitations.invitedAt,
      userId: subjects.userId,
      lastSeen,
      sent,
    })
    .from(cases)
    .innerJoin(
      processes,
      and(eq(processes.customerId, cases.customerId), eq(processes.id, cases.processId)),
    )
    .innerJoin(
      subjects,
      and(eq(subjects.customerId, cases.customerId), eq(subjects.id, cases.subjectId)),
    )
    .leftJoin(
      caseInvitations,
      and(eq(caseInvitations.customerId, cases.customerId), eq(caseInvitations.caseId, cases.id)),
    )
    .where(
      and(
        eq(cases.state, 'awaiting-subject'),
        isNull(cases.archivedAt),
        isNull(caseInvitations.expiredAt),
        sql`(${processes.reminderSchedule} is not null or ${processes.invitationExpiryDays} > 0)`,
      ),
    );
  const out: DueItem[] = [];
  for (const r of rows) {
    const invitedAt = r.invitedAt ?? r.createdAt;
    const lastActivityAt = r.lastSeen ? new Date(r.lastSeen) : null;
    const base = { customerId: r.customerId, caseId: r.caseId, userId: r.userId };
    const expires = invitationExpiresAt(invitedAt, r.expiryDays);
    const untouched = lastActivityAt === null || lastActivityAt < invitedAt;
    if (expires && expires <= now && untouched) {
      out.push({ ...base, kind: 'expiry' });
      continue;
    }
    const next = nextReminderAt({
      invitedAt,
      lastActivityAt,
      lastReminderAt: r.lastReminderAt,
      remindersSent: Number(r.sent),
      schedule: r.schedule,
    });
    if (next && next <= now) out.push({ ...base, kind: 'reminder' });
  }
  return out;
}

/** The case `id` locked for this transaction, or null when another holds it (skip locked). */
/**
 * The case locked for this run (skipped when another run holds it), or null unless it still
 * awaits its subject and is not archived: what both reminder runs check first.
 */
async function claimAwaitingCase(tx: Tx, id: number) {
  const [c] = await tx
    .select()
    .from(cases)
    .where(eq(cases.id, id))
    .limit(1)
    .for('update', { skipLocked: true });
  return c && c.state === 'awaiting-subject' && !c.archivedAt ? c : null;
}

async function invitationRow(tx: Tx, caseId: number) {
  const [row] = await tx.select().from(caseInvitations).where(eq(caseInvitations.caseId, caseId));
  return row ?? null;
}

async function processOf(tx: Tx, processId: number) {
  const [p] = await tx.select().from(processes).where(eq(processes.id, processId));
  if (!p) throw new Error(`process ${processId} not found`);
  return p;
}

/** Whether the subject wants the product's messages (its profile's dbs_email_notifications). */
async function wantsMessages(tx: Tx, userId: number): Promise<boolean> {
  const [u] = await tx
    .select({ on: subjectUsers.dbsEmailNotifications })
    .from(subjectUsers)
    .where(eq(subjectUsers.id, userId));
  return u?.on ?? true;
}

/**
 * Sends case `caseId`'s next automatic reminder, once: the case is claimed with skip locked (a
 * second process passes it by), the 24-hour rule is checked again under the lock, and the
 * reminder is recorded under its unique key (invitation round, number) before its messages are
 * enqueued. Returns whether one was sent.
 */
export async function sendDueReminder(
  ctx: ServiceContext,
  deps: ReminderDeps,
  caseId: number,
): Promise<boolean> {
  const { tx, actor } = ctx;
  const now = ctx.clock.now();
  const c = await claimAwaitingCase(tx, caseId);
  if (!c) return false;
  if (isReminderTooSoon(c.lastReminderAt, now)) return false;
  const p = await processOf(tx, c.processId);
  const schedule: ReminderSchedule | null = p.reminderSchedule;
  const inv = await invitationRow(tx, caseId);
  if (!schedule || inv?.expiredAt) return false;
  const round = inv?.round ?? 0;
  const [{ n } = { n: 0 }] = await tx
    .select({ n: count() })
    .from(caseReminders)
    .where(and(eq(caseReminders.caseId, caseId), eq(caseReminders.round, round)));
  const invitedAt = inv?.invitedAt ?? c.createdAt;
  const due = nextReminderAt({
    invitedAt,
    lastActivityAt: null, // the system checked the sign-ins when it found the case
    lastReminderAt: c.lastReminderAt,
    remindersSent: n,
    schedule,
  });
  if (!due || due > now) return false;
  const subject = await getSubject(tx, c.subjectId);
  const sendsAny = subject.userId === null || (await wantsMessages(tx, subject.userId));
  const mobile = sendsAny && p.reminderSms ? mobileNumber(subject.phoneNumber) : null;
  const channels = !sendsAny ? 'none' : mobile ? 'email,sms' : 'email';
  const [row] = await tx
    .insert(caseReminders)
    .values({ customerId: c.customerId, caseId, round, number: n + 1, channels, sentAt: now })
    .onConflictDoNothing()
    .returning();
  if (!row) return false;
  if (sendsAny) await enqueueReminder(ctx, deps, subject, caseId, p.invitationMessage, mobile);
  await tx.update(cases).set({ lastReminderAt: now }).where(eq(cases.id, caseId));
  await recordAudit(tx, actor, {
    verb: 'reminder_sent',
    contentType: CASE_CT,
    objectId: caseId,
    objectRepr: caseRepr(caseId, subject),
    changes: { to: subject.email, automatic: true, number: n + 1, channels },
  });
  return true;
}

/**
 * Expires case `caseId`'s invitation: its activities waiting for the subject move to waiting for
 * the customer (audited each, the case following), the expiry is recorded and audited. Claimed
 * with skip locked. Returns whether it expired it (the caller then voids the claim links).
 */
export async function expireInvitation(ctx: ServiceContext, caseId: number): Promise<boolean> {
  const { tx, actor } = ctx;
  const now = ctx.clock.now();
  const c = await claimAwaitingCase(tx, caseId);
  if (!c) return false;
  const p = await processOf(tx, c.processId);
  const inv = await invitationRow(tx, caseId);
  if (inv?.expiredAt) return false;
  const invitedAt = inv?.invitedAt ?? c.createdAt;
  const expires = invitationExpiresAt(invitedAt, p.invitationExpiryDays);
  if (!expires || expires > now) return false;
  const waiting = await tx
    .select({ id: caseActivities.id })
    .from(caseActivities)
    .where(and(eq(caseActivities.caseId, caseId), eq(caseActivities.state, 'ca-awaiting-subject')));
  const ids = waiting.map((a) => a.id);
  for (const id of ids) await changeActivity(tx, actor, id, { state: EXPIRED_ACTIVITY_STATE }, now);
  await tx
    .insert(caseInvitations)
    .values({
      customerId: c.customerId,
      caseId,
      round: 0,
      invitedAt,
      expiredAt: now,
      expiredActivityIds: ids,
      updatedAt: now,
    })
    .onConflictDoUpdate({
      target: [caseInvitations.customerId, caseInvitations.caseId],
      set: { expiredAt: now, expiredActivityIds: ids, updatedAt: now },
    });
  const subject = await getSubject(tx, c.subjectId);
  await recordAudit(tx, actor, {
    verb: 'invitation_expired',
    contentType: CASE_CT,
    objectId: caseId,
    objectRepr: caseRepr(caseId, subject),
    changes: {
      invited_at: invitedAt.toISOString(),
      expiry_days: p.invitationExpiryDays,
      activities: ids,
    },
  });
  return true;
}

/**
 * Voids the unused claim links of subject login `userId` (the system's context: the tokens are
 * the system's): an expired invitation's link, or the one a resend replaces, then answers as
 * expired.
 */
export async function voidClaimLinks(tx: Tx, userId: number, now: Date): Promise<void> {
  await tx
    .update(accountTokens)
    .set({ expiresAt: now })
    .where(
      and(
        eq(accountTokens.purpose, 'claim'),
        eq(accountTokens.userType, 'SubjectUser'),
        eq(accountTokens.userId, userId),
        isNull(accountTokens.usedAt),
        gt(accountTokens.expiresAt, now),
      ),
    );
}

/**
 * The customer resending case `caseId`'s expired invitation: the activities its expiry moved come
 * back to the subject (those still waiting for the customer), a new round starts (its reminders
 * counted afresh, its expiry from now), the invitation email goes with a fresh link (the old
 * links were voided first, by the caller), and the resend is audited. 400 when the invitation
 * has not expired.
 */
export async function resendInvitation(
  ctx: ServiceContext,
  deps: ReminderDeps,
  caseId: number,
): Promise<{ detail: string }> {
  const { tx, actor } = ctx;
  const now = ctx.clock.now();
  const c = await lockCase(tx, caseId);
  const inv = await invitationRow(tx, caseId);
  if (!inv?.expiredAt || c.archivedAt) {
    throw ValidationError.of('non_field_errors', INVITATION_NOT_EXPIRED);
  }
  const back = inv.expiredActivityIds.length
    ? await tx
        .select({ id: caseActivities.id })
        .from(caseActivities)
        .where(
          and(
            inArray(caseActivities.id, inv.expiredActivityIds),
            eq(caseActivities.state, EXPIRED_ACTIVITY_STATE),
          ),
        )
    : [];
  for (const a of back)
    await changeActivity(tx, actor, a.id, { state: 'ca-awaiting-subject' }, now);
  await tx
    .update(caseInvitations)
    .set({
      round: inv.round + 1,
      invitedAt: now,
      expiredAt: null,
      expiredActivityIds: [],
      updatedAt: now,
    })
    .where(eq(caseInvitations.caseId, caseId));
  const p = await processOf(tx, c.processId);
  const subject = await getSubject(tx, c.subjectId);
  const { mail } = await caseEmail(ctx, deps, subject, caseId, p.invitationMessage, false);
  await ctx.enqueue(emailJob(mail));
  await recordAudit(tx, actor, {
    verb: 'invitation_resent',
    contentType: CASE_CT,
    objectId: caseId,
    objectRepr: caseRepr(caseId, subject),
    changes: { to: subject.email, round: inv.round + 1, activities: back.map((a) => a.id) },
  });
  return { detail: 'Invitation sent' };
}

/** The case's invitation as the case screen shows it. */
export async function invitationStatus(tx: Tx, caseId: number) {
  const c = await readCase(tx, caseId);
  const p = await processOf(tx, c.processId);
  const inv = await invitationRow(tx, caseId);
  const invitedAt = inv?.invitedAt ?? c.createdAt;
  const round = inv?.round ?? 0;
  const [{ n } = { n: 0 }] = await tx
    .select({ n: count() })
    .from(caseReminders)
    .where(and(eq(caseReminders.caseId, caseId), eq(caseReminders.round, round)));
  const waiting = c.state === 'awaiting-subject' && !inv?.expiredAt && !c.archivedAt;
  const next = waiting
    ? nextReminderAt({
        invitedAt,
        lastActivityAt: null,
        lastReminderAt: c.lastReminderAt,
        remindersSent: n,
        schedule: p.reminderSchedule,
      })
    : null;
  const expires = invitationExpiresAt(invitedAt, p.invitationExpiryDays);
  return {
    invited_at: invitedAt.toISOString(),
    resends: round,
    expires_at: expires?.toISOString() ?? null,
    expired_at: inv?.expiredAt?.toISOString() ?? null,
    is_expired: inv?.expiredAt != null,
    reminders_sent: n,
    last_reminder_at: c.lastReminderAt?.toISOString() ?? null,
    next_reminder_at: next?.toISOString() ?? null,
  };
}

async function readCase(tx: Tx, id: number) {
  const [c] = await tx.select().from(cases).where(eq(cases.id, id)).limit(1);
  if (!c) throw new NotFoundError();
  return c;
}
