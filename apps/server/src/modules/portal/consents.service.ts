import {
  CONSENT_EXPIRING_DAYS,
  CONSENT_KIND_LABELS,
  CONSENT_KINDS,
  type ConsentKind,
  canTransitionActivity,
  consentKindOf,
  DVLA_CONSENT_YEARS,
  isCaseActivityState,
  type SubjectConsentOut,
} from '@kestrel/domain';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Tx } from '../../db/connection.js';
import { recordAudit } from '../../platform/audit.js';
import { iso } from '../../platform/clock.js';
import { NotFoundError, ValidationError } from '../../platform/errors.js';
import type { ServiceContext } from '../../platform/service-context.js';
import { changeActivity } from '../activities/activities.service.js';
import { caseActivities } from '../activities/activities.table.js';
import { activityTypes } from '../bootstrap/bootstrap.table.js';
import { customers } from '../customers/customers.table.js';
import { subjectUsers } from '../users/users.table.js';
import { emitWebhookEvent } from '../webhooks/webhook-events.js';
import { subjectConsents } from './consents.table.js';
import { lockOwnCase } from './subject-scope.js';

export const CONSENT_CT = 'portal.subjectconsent';

export const CONSENT_MESSAGES = {
  wrongKind: 'This check does not take this kind of consent.',
  notOfCase: 'This check is not part of the case.',
  alreadyGiven: 'Consent has already been given for this check.',
  alreadyWithdrawn: 'This consent has already been withdrawn.',
  notRenewable: 'Only a driving licence consent can be renewed.',
  notDue: 'This consent is not due for renewal yet.',
} as const;

const DAY_MS = 86_400_000;

/** When a consent given at `givenAt` expires: a DVLA mandate after 3 years, the others never. */
export function consentExpiry(kind: ConsentKind, givenAt: Date): Date | null {
  if (kind !== 'driver-data') return null;
  const d = new Date(givenAt);
  d.setUTCFullYear(d.getUTCFullYear() + DVLA_CONSENT_YEARS);
  return d;
}

export type ConsentStatus = SubjectConsentOut['status'];

/** withdrawn, expired (at or past its expiry), expiring (within 90 days of it), or active. */
export function consentStatus(
  c: { withdrawnAt: Date | null; expiresAt: Date | null },
  now: Date,
): ConsentStatus {
  if (c.withdrawnAt) return 'withdrawn';
  if (!c.expiresAt) return 'active';
  const left = c.expiresAt.getTime() - now.getTime();
  if (left <= 0) return 'expired';
  return left <= CONSENT_EXPIRING_DAYS * DAY_MS ? 'expiring' : 'active';
}

const isKind = (k: string): k is ConsentKind => (CONSENT_KINDS as readonly string[]).includes(k);

/** The consents of the tenant's cases visible to the caller (RLS), renewed ones left out. */
export async function consentsInTenant(
  tx: Tx,
  now: Date,
  filter: { caseIds?: readonly number[]; ids?: readonly number[] } = {},
): Promise<SubjectConsentOut[]> {
  const rows = await tx
    .select({
      c: subjectConsents,
      activityTypeName: activityTypes.name,
      customerName: customers.name,
    })
    .from(subjectConsents)
    .innerJoin(
      caseActivities,
      and(
        eq(caseActivities.customerId, subjectConsents.customerId),
        eq(caseActivities.id, subjectConsents.caseActivityId),
      ),
    )
    .innerJoin(activityTypes, eq(activityTypes.id, caseActivities.activityTypeId))
    .innerJoin(customers, eq(customers.id, subjectConsents.customerId))
    .where(
      and(
        isNull(subjectConsents.renewedAt),
        filter.caseIds ? inArray(subjectConsents.caseId, [...filter.caseIds]) : undefined,
        filter.ids ? inArray(subjectConsents.id, [...filter.ids]) : undefined,
      ),
    )
    .orderBy(asc(subjectConsents.givenAt), asc(subjectConsents.id));
  return rows.map(({ c, activityTypeName, customerName }) => {
    const kind = isKind(c.kind) ? c.kind : 'dbs-application';
    return {
      id: c.id,
      case: c.caseId,
      case_activity: c.caseActivityId,
      activity_type_name: activityTypeName,
      customer_name: customerName,
      kind,
      kind_display: CONSENT_KIND_LABELS[kind],
      given_at: c.givenAt.toISOString(),
      expires_at: iso(c.expiresAt),
      withdrawn_at: iso(c.withdrawnAt),
      status: consentStatus(c, now),
    };
  });
}

async function presentOne(ctx: ServiceContext, id: number): Promise<SubjectConsentOut> {
  const [out] = await consentsInTenant(ctx.tx, ctx.clock.now(), { ids: [id] });
  if (!out) throw new NotFoundError();
  return out;
}

async function insertConsent(
  ctx: ServiceContext,
  values: { customerId: number; caseId: number; caseActivityId: number; kind: ConsentKind },
) {
  const now = ctx.clock.now();
  const [row] = await ctx.tx
    .insert(subjectConsents)
    .values({ ...values, givenAt: now, expiresAt: consentExpiry(values.kind, now) })
    .returning();
  if (!row) throw new Error('consent insert returned nothing');
  await recordAudit(ctx.tx, ctx.actor, {
    customerId: values.customerId,
    verb: 'created',
    contentType: CONSENT_CT,
    objectId: row.id,
    objectRepr: `Consent ${row.id} (${CONSENT_KIND_LABELS[values.kind]})`,
    changes: {
      case: values.caseId,
      case_activity: values.caseActivityId,
      kind: values.kind,
      expires_at: iso(row.expiresAt),
    },
  });
  return row;
}

/**
 * POST /api/s/consents/ (system transaction on the subject's behalf): the case must be the
 * subject's own and not submitted (404, 403), the activity one of its checks taking that kind of
 * consent, with no live consent of that kind yet (400).
 */
export async function giveConsent(
  ctx: ServiceContext,
  input: { case: number; case_activity: number; kind: ConsentKind },
): Promise<SubjectConsentOut> {
  const own = await lockOwnCase(ctx, input.case, 'write');
  const [activity] = await ctx.tx
    .select({ id: caseActivities.id, code: activityTypes.code })
    .from(caseActivities)
    .innerJoin(activityTypes, eq(activityTypes.id, caseActivities.activityTypeId))
    .where(and(eq(caseActivities.id, input.case_activity), eq(caseActivities.caseId, own.id)));
  if (!activity) throw ValidationError.of('case_activity', CONSENT_MESSAGES.notOfCase);
  if (consentKindOf(activity.code) !== input.kind) {
    throw ValidationError.of('kind', CONSENT_MESSAGES.wrongKind);
  }
  const live = await ctx.tx
    .select({ id: subjectConsents.id, expiresAt: subjectConsents.expiresAt })
    .from(subjectConsents)
    .where(
      and(
        eq(subjectConsents.caseActivityId, activity.id),
        eq(subjectConsents.kind, input.kind),
        isNull(subjectConsents.withdrawnAt),
        isNull(subjectConsents.renewedAt),
      ),
    );
  const now = ctx.clock.now();
  if (
    live.some(
      (c) => consentStatus({ withdrawnAt: null, expiresAt: c.expiresAt }, now) !== 'expired',
    )
  ) {
    throw ValidationError.of('kind', CONSENT_MESSAGES.alreadyGiven);
  }
  const row = await insertConsent(ctx, {
    customerId: own.customerId,
    caseId: own.id,
    caseActivityId: activity.id,
    kind: input.kind,
  });
  return presentOne(ctx, row.id);
}

/** The consent `id` and its case, if its case is the subject's own (404 otherwise). */
async function ownConsent(ctx: ServiceContext, id: number) {
  const [row] = await ctx.tx
    .select()
    .from(subjectConsents)
    .where(and(eq(subjectConsents.id, id), isNull(subjectConsents.renewedAt)));
  if (!row) throw new NotFoundError();
  // a consent outlives the portal: withdrawing or renewing it is allowed after submission
  await lockOwnCase(ctx, row.caseId, 'any');
  const [locked] = await ctx.tx
    .select()
    .from(subjectConsents)
    .where(eq(subjectConsents.id, id))
    .for('update');
  if (!locked) throw new NotFoundError();
  return locked;
}

/**
 * POST /api/s/consents/{id}/withdraw/: records the withdrawal and puts the activity it was for
 * to the customer's attention (pending activity decision) when it is still open.
 */
export async function withdrawConsent(ctx: ServiceContext, id: number): Promise<SubjectConsentOut> {
  const row = await ownConsent(ctx, id);
  if (row.withdrawnAt)
    throw ValidationError.of('non_field_errors', CONSENT_MESSAGES.alreadyWithdrawn);
  const now = ctx.clock.now();
  await ctx.tx.update(subjectConsents).set({ withdrawnAt: now }).where(eq(subjectConsents.id, id));
  await recordAudit(ctx.tx, ctx.actor, {
    customerId: row.customerId,
    verb: 'updated',
    contentType: CONSENT_CT,
    objectId: id,
    objectRepr: `Consent ${id} withdrawn`,
    changes: { withdrawn_at: [null, now.toISOString()] },
  });
  await emitWebhookEvent(
    ctx.tx,
    row.customerId,
    'consent.withdrawn',
    {
      consent: {
        id,
        kind: row.kind,
        case_activity: row.caseActivityId,
        withdrawn_at: now.toISOString(),
      },
    },
    now,
  );
  const [activity] = await ctx.tx
    .select({ state: caseActivities.state })
    .from(caseActivities)
    .where(eq(caseActivities.id, row.caseActivityId));
  const to = 'ca-pending-activity-decision';
  if (
    activity &&
    isCaseActivityState(activity.state) &&
    canTransitionActivity(activity.state, to)
  ) {
    await changeActivity(ctx.tx, ctx.actor, row.caseActivityId, { state: to }, now);
  }
  return presentOne(ctx, id);
}

/**
 * POST /api/s/dvla-reconsent/ {consent}: renews a driving licence consent that is expiring or
 * expired: a new consent for 3 more years replaces it (kept as renewed), and the renewal is
 * added to the person's `dvla_reconsents`. Refused (400) for another kind, a withdrawn consent,
 * or one that is not due.
 */
export async function renewDvlaConsent(
  ctx: ServiceContext,
  consentId: number,
): Promise<SubjectConsentOut> {
  const row = await ownConsent(ctx, consentId);
  if (row.kind !== 'driver-data')
    throw ValidationError.of('consent', CONSENT_MESSAGES.notRenewable);
  const now = ctx.clock.now();
  const status = consentStatus(row, now);
  if (status === 'withdrawn')
    throw ValidationError.of('consent', CONSENT_MESSAGES.alreadyWithdrawn);
  if (status === 'active') throw ValidationError.of('consent', CONSENT_MESSAGES.notDue);
  await ctx.tx
    .update(subjectConsents)
    .set({ renewedAt: now })
    .where(eq(subjectConsents.id, consentId));
  const renewed = await insertConsent(ctx, {
    customerId: row.customerId,
    caseId: row.caseId,
    caseActivityId: row.caseActivityId,
    kind: 'driver-data',
  });
  const login = ctx.actor.id;
  if (login !== null) {
    const entry = {
      consent: renewed.id,
      replaces: consentId,
      case: row.caseId,
      renewed_at: now.toISOString(),
      expires_at: iso(renewed.expiresAt),
    };
    await ctx.tx
      .update(subjectUsers)
      .set({
        dvlaReconsents: sql`${subjectUsers.dvlaReconsents} || ${JSON.stringify([entry])}::jsonb`,
      })
      .where(eq(subjectUsers.id, login));
  }
  return presentOne(ctx, renewed.id);
}
