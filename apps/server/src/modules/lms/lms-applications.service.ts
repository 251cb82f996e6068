import {
  APPLICATION_KIND_LABELS,
  APPLICATION_MESSAGES,
  APPLICATION_STATE_LABELS,
  type ApplicationApplyInput,
  type ApplicationApplyOut,
  type ApplicationDetailOut,
  type ApplicationOut,
  type ApplicationState,
  CASE_ACTIVITY_STATE_LABELS,
  formatPence,
  grantEffect,
  type HeldLicence,
  isCaseActivityState,
  isOpenApplicationState,
  isoDate,
  isRenewableLicence,
  LICENCE_STATUS_LABELS,
  type LicenceStatus,
  licenceExpiryDate,
  paymentPortalPath,
  REGISTER_KIND_LABELS,
  type RegisterEntryOut,
  type RegisterKind,
  type SubjectApplicationOut,
  type SubjectApplicationPortalOut,
  TAX_CHECK_CODE_EXPIRED,
  TAX_CHECK_CODE_REQUIRED,
  TAX_CHECK_CODE_UNKNOWN,
  TAX_CHECK_STATUS_LABELS,
  TAX_RESPONSIBILITIES_REQUIRED,
  type TaxCheckNeed,
  type TaxCheckReason,
  type TaxCheckStatus,
  taxCheckedOnApply,
  taxCheckReason,
} from '@kestrel/domain';
import { and, asc, desc, eq, inArray, ne, or, type SQL, sql } from 'drizzle-orm';
import { type AnyPgColumn, type PgSelect, unionAll } from 'drizzle-orm/pg-core';
import type { Tx } from '../../db/connection.js';
import { jobActor } from '../../jobs/service-job.js';
import { recordAudit } from '../../platform/audit.js';
import type { Actor } from '../../platform/context.js';
import {
  ConflictError,
  NotFoundError,
  PermissionDeniedError,
  ValidationError,
} from '../../platform/errors.js';
import {
  type ContextDeps,
  runAsSystem,
  runInTenant,
  type ServiceContext,
} from '../../platform/service-context.js';
import { ProviderError } from '../../providers/errors.js';
import type { TaxCheckAnswer } from '../../providers/hmrc-tax-check/provider.js';
import { taxCheckProvider } from '../../providers/hmrc-tax-check/simulator.js';
import { caseActivities } from '../activities/activities.table.js';
import { activityTypes } from '../bootstrap/bootstrap.table.js';
import { openCase } from '../cases/commands/open-case.js';
import type { CaseMailDeps } from '../cases/commands/subject-email.js';
import { customers } from '../customers/customers.table.js';
import { paymentIntents } from '../payments/payments.table.js';
import { createPurposeIntent } from '../payments/service.js';
import { processes, processRequirements } from '../processes/processes.table.js';
import { insertSubject } from '../subjects/subjects.service.js';
import { subjects } from '../subjects/subjects.table.js';
import { subjectUsers } from '../users/users.table.js';
import { publicPortals } from './lms.public.js';
import { findLicence, issueLicence } from './lms.service.js';
import {
  licenceDefinitions,
  licenceEvents,
  licenceSubGroups,
  licences,
  lmsApplicationPortals,
} from './lms.table.js';
import { lmsApplicationEvents, lmsApplications } from './lms-applications.table.js';

/*
 * Licence applications (issue 32). A subject applies on a council's open portal: the council's
 * record of the person is made if it has none (one login, a record per council), the application
 * waits for its fee (or, with none, opens its case at once: the definition's requirements as the
 * council's process for that definition), and the council's licensing team decides it: grant
 * (issues the licence, or extends the renewed one), refuse with a reason, or ask for more.
 * The subject's writes run in the portal's council's tenant on the subject's behalf (its record
 * and case are the council's); its reads across councils run as the system, filtered to its login.
 */

export const APPLICATION_CT = 'lms_licences.application';

type AppRow = typeof lmsApplications.$inferSelect;
type Page = { pageSize: number; offset: number };
type Paged<T> = { count: number; results: T[] };

const iso = (d: Date) => d.toISOString();
const countOf = sql<number>`count(*)::int`.mapWith(Number);
/**
 * The join of an application's row in another tenant table: the same council, the id the
 * application names (every tenant key carries customer_id: decision 023).
 */
const onApplication = (
  t: { customerId: AnyPgColumn; id: AnyPgColumn },
  ref: AnyPgColumn,
): SQL | undefined => and(eq(t.customerId, lmsApplications.customerId), eq(t.id, ref));

/** How many applications (with their subject) `where` finds: both application lists' count. */
async function countApplications(tx: Tx, where: SQL | undefined): Promise<number> {
  const [total] = await tx
    .select({ n: countOf })
    .from(lmsApplications)
    .innerJoin(subjects, onApplication(subjects, lmsApplications.subjectId))
    .where(where);
  return total?.n ?? 0;
}

const OPEN: ApplicationState[] = ['awaiting_payment', 'in_progress', 'more_info_requested'];
export const applicationReference = (id: number) => `APP-${String(id).padStart(6, '0')}`;
export const casePortalUrl = (caseId: number) => `/s/case-portal/${caseId}`;
const DAY_MS = 86_400_000;
const dayAfter = (day: string) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);

/**
 * The actor of a subject's write at a council: no user of the council (no segment scope, the
 * application role in the council's tenant), named after the applicant for the audit trail.
 */
export function applicantActor(actor: Actor, customerId: number): Actor {
  return {
    ...actor,
    type: null,
    id: null,
    name: `${actor.name} (applicant)`.slice(0, 200),
    customerId,
    isOps: false,
    permissions: new Set(),
  };
}

function loginOf(actor: Actor): number {
  if (actor.type !== 'SubjectUser' || actor.id === null) throw new NotFoundError();
  return actor.id;
}

async function one<T>(rows: Promise<T[]>): Promise<T> {
  const [row] = await rows;
  if (!row) throw new NotFoundError();
  return row;
}

// ---- the tax check's need ----

/**
 * Why the applicant must give a tax check code, or null (they confirm their tax
 * responsibilities): the domain's rule (taxCheckReason) over the login's licences of the same
 * type, at this council (the portal's sub-group, or one of the same code) and at others (a
 * sub-group of the same code). Reads across councils (the system).
 */
async function taxReasonFor(
  tx: Tx,
  login: number,
  portal: { customer: number; kind: string; sub_group: number },
  today: string,
  declaredElsewhere = false,
): Promise<TaxCheckReason | null> {
  if (portal.kind === 'renewal') return 'renewal';
  const [sub] = await tx
    .select({ code: licenceSubGroups.code })
    .from(licenceSubGroups)
    .where(
      and(
        eq(licenceSubGroups.customerId, portal.customer),
        eq(licenceSubGroups.id, portal.sub_group),
      ),
    );
  const sameType = or(
    and(eq(licences.customerId, portal.customer), eq(licenceSubGroups.id, portal.sub_group)),
    sub && sub.code !== '' ? eq(licenceSubGroups.code, sub.code) : undefined,
  );
  const rows = await tx
    .select({
      customer: licences.customerId,
      status: licences.status,
      expiryDate: licences.expiryDate,
      statusChangedAt: licences.statusChangedAt,
    })
    .from(licences)
    .innerJoin(
      subjects,
      and(eq(subjects.customerId, licences.customerId), eq(subjects.id, licences.holderId)),
    )
    .innerJoin(
      licenceDefinitions,
      and(
        eq(licenceDefinitions.customerId, licences.customerId),
        eq(licenceDefinitions.id, licences.definitionId),
      ),
    )
    .innerJoin(
      licenceSubGroups,
      and(
        eq(licenceSubGroups.customerId, licences.customerId),
        eq(licenceSubGroups.id, licenceDefinitions.subGroupId),
      ),
    )
    .where(and(eq(subjects.userId, login), sameType));
  const held: HeldLicence[] = rows.map((r) => ({
    sameType: true,
    here: r.customer === portal.customer,
    status: r.status,
    expiryDate: r.expiryDate,
    statusChangedOn: r.statusChangedAt ? isoDate(r.statusChangedAt) : null,
  }));
  return taxCheckReason({ renewal: false, declaredElsewhere, held, today });
}

// ---- the HMRC tax check ----

const TAX_LICENCE_TYPE = 'taxi and private hire';

interface TaxResult {
  status: TaxCheckStatus;
  message: string;
}

function taxResultOf(a: TaxCheckAnswer): TaxResult {
  if (a.outcome === 'valid') {
    return {
      status: 'confirmed',
      message: `HMRC confirmed the tax check code (valid until ${a.expires_on ?? 'unknown'}).`,
    };
  }
  if (a.outcome === 'expired') return { status: 'expired', message: TAX_CHECK_CODE_EXPIRED };
  return { status: 'failed', message: TAX_CHECK_CODE_UNKNOWN };
}

/** Asks HMRC now (outside any transaction); a failing HMRC is a 400 saying to try again. */
async function askHmrc(
  code: string,
  person: { first: string; last: string; dob: string | null },
  today: string,
): Promise<TaxResult> {
  try {
    const answer = await taxCheckProvider().confirm(
      {
        code,
        first_name: person.first,
        last_name: person.last,
        dob: person.dob,
        licence_type: TAX_LICENCE_TYPE,
        today,
      },
      AbortSignal.timeout(10_000),
    );
    return taxResultOf(answer);
  } catch (e) {
    if (e instanceof ProviderError) {
      throw ValidationError.of(
        'non_field_errors',
        'HMRC did not answer the tax check. Try again in a few minutes.',
      );
    }
    throw e;
  }
}

// ---- the subject's portals ----

async function myOpenApplication(tx: Tx, login: number, portalIds: number[]) {
  if (portalIds.length === 0) return [];
  return tx
    .select({ app: lmsApplications })
    .from(lmsApplications)
    .innerJoin(subjects, onApplication(subjects, lmsApplications.subjectId))
    .where(
      and(
        eq(subjects.userId, login),
        inArray(lmsApplications.portalId, portalIds),
        inArray(lmsApplications.state, OPEN),
      ),
    );
}

function nextUrlOf(app: AppRow): string | null {
  if (app.state === 'awaiting_payment') return `/s/lms/applications/${app.id}`;
  if (app.caseId !== null && isOpenApplicationState(app.state)) return casePortalUrl(app.caseId);
  if (isOpenApplicationState(app.state)) return `/s/lms/applications/${app.id}`;
  return null;
}

/** GET /api/lms/s/application-portals/ (and /{id}/: one): open portals for this subject. */
export async function subjectPortals(
  deps: ContextDeps,
  actor: Actor,
  page: Page,
  filter: { customer?: number | null; subGroup?: number | null; id?: number },
): Promise<Paged<SubjectApplicationPortalOut>> {
  const login = loginOf(actor);
  return runAsSystem(
    deps,
    async ({ tx, clock }) => {
      const today = isoDate(clock.now());
      const found = await publicPortals(tx, page, filter);
      const mine = await myOpenApplication(
        tx,
        login,
        found.results.map((p) => p.id),
      );
      const results: SubjectApplicationPortalOut[] = [];
      // portals of one definition need the same (a renewal's answer needs no query)
      const needs = new Map<string, TaxCheckNeed>();
      const needOf = async (p: (typeof found.results)[number]) => {
        const key = `${p.customer}:${p.definition}:${p.sub_group}:${p.kind}`;
        const known = needs.get(key);
        if (known) return known;
        const need: TaxCheckNeed =
          (await taxReasonFor(tx, login, p, today)) === null ? 'confirm' : 'code';
        needs.set(key, need);
        return need;
      };
      for (const p of found.results) {
        const open = mine.find(
          (m) => m.app.portalId === p.id && m.app.customerId === p.customer,
        )?.app;
        results.push({
          ...p,
          tax_check: await needOf(p),
          my_application: open
            ? {
                id: open.id,
                reference: applicationReference(open.id),
                state: open.state,
                state_label: APPLICATION_STATE_LABELS[open.state],
                next_url: nextUrlOf(open),
              }
            : null,
        });
      }
      return { count: found.count, results };
    },
    actor,
  );
}

// ---- applying ----

interface PortalFacts {
  customer: number;
  portal: number;
  definition: number;
  sub_group: number;
  kind: 'new' | 'renewal';
  fee: number;
  login: { email: string; first: string; middle: string; last: string; dob: string | null };
  subjectId: number | null;
  /** Why a tax check code is needed (the domain's taxCheckReason), or null: the confirmation. */
  reason: TaxCheckReason | null;
  /** Renewals: the subject's licence being renewed (active, not expired), or null. */
  renewable: number | null;
}

async function portalFacts(
  deps: ContextDeps,
  actor: Actor,
  portalId: number,
  declaredElsewhere: boolean,
): Promise<PortalFacts> {
  const login = loginOf(actor);
  return runAsSystem(
    deps,
    async ({ tx, clock }) => {
      const today = isoDate(clock.now());
      const [p] = (await publicPortals(tx, { pageSize: 1, offset: 0 }, { id: portalId })).results;
      if (!p) {
        // a closed (or unpublished) portal the subject may know of: say it is closed
        const [closed] = await tx
          .select({ id: lmsApplicationPortals.id })
          .from(lmsApplicationPortals)
          .where(
            and(eq(lmsApplicationPortals.id, portalId), eq(lmsApplicationPortals.isOpen, false)),
          )
          .limit(1);
        if (closed) throw ValidationError.of('non_field_errors', APPLICATION_MESSAGES.portalClosed);
        throw new NotFoundError();
      }
      const u = await one(
        tx
          .select({
            email: subjectUsers.email,
            first: subjectUsers.firstName,
            middle: subjectUsers.middlename,
            last: subjectUsers.lastName,
            dob: subjectUsers.dob,
          })
          .from(subjectUsers)
          .where(eq(subjectUsers.id, login)),
      );
      const records = await tx
        .select()
        .from(subjects)
        .where(eq(subjects.userId, login))
        .orderBy(asc(subjects.id));
      const here = records.find((s) => s.customerId === p.customer && s.mergedIntoId === null);
      const any = here ?? records[0];
      let renewable: number | null = null;
      if (p.kind === 'renewal' && here) {
        const held = await tx
          .select({ id: licences.id, status: licences.status, expiryDate: licences.expiryDate })
          .from(licences)
          .where(
            and(
              eq(licences.customerId, p.customer),
              eq(licences.holderId, here.id),
              eq(licences.definitionId, p.definition),
            ),
          )
          .orderBy(desc(licences.expiryDate), desc(licences.id));
        renewable = held.find((l) => isRenewableLicence(l, today))?.id ?? null;
      }
      return {
        customer: p.customer,
        portal: p.id,
        definition: p.definition,
        sub_group: p.sub_group,
        kind: p.kind,
        fee: p.fee_pence,
        login: {
          email: u.email,
          first: u.first || any?.firstName || '',
          middle: u.middle || any?.middlename || '',
          last: u.last || any?.lastName || '',
          dob: u.dob ?? any?.dob ?? null,
        },
        subjectId: here?.id ?? null,
        reason: await taxReasonFor(tx, login, p, today, declaredElsewhere),
        renewable,
      };
    },
    actor,
  );
}

/**
 * The tax check the application starts with: a code where needed (required; a renewal's, or an
 * existing holder's, is confirmed with HMRC now: an expired or unknown code stops it), else the
 * confirmation.
 */
async function startingTaxCheck(
  reason: TaxCheckReason | null,
  input: { tax_check_code?: string | undefined; tax_responsibilities_confirmed?: boolean },
  person: { first: string; last: string; dob: string | null },
  today: string,
): Promise<{ code: string | null; result: TaxResult | null; confirmed: boolean }> {
  if (reason === null) {
    if (input.tax_responsibilities_confirmed !== true) {
      throw ValidationError.of('tax_responsibilities_confirmed', TAX_RESPONSIBILITIES_REQUIRED);
    }
    return { code: null, result: null, confirmed: true };
  }
  const code = input.tax_check_code;
  if (!code) throw ValidationError.of('tax_check_code', TAX_CHECK_CODE_REQUIRED);
  if (!taxCheckedOnApply(reason)) return { code, result: null, confirmed: false };
  const result = await askHmrc(code, person, today);
  if (result.status !== 'confirmed') throw ValidationError.of('tax_check_code', result.message);
  return { code, result, confirmed: false };
}

async function addAppEvent(
  ctx: ServiceContext,
  app: Pick<AppRow, 'customerId' | 'id'>,
  action: string,
  from: ApplicationState | null,
  to: ApplicationState,
  message = '',
): Promise<void> {
  await ctx.tx.insert(lmsApplicationEvents).values({
    customerId: app.customerId,
    applicationId: app.id,
    action,
    fromState: from,
    toState: to,
    message,
    actorId: ctx.actor.type === 'ProductUser' ? ctx.actor.id : null,
    actorName: ctx.actor.name.slice(0, 200),
    createdAt: ctx.clock.now(),
  });
}

interface NewApplication {
  portalId: number;
  definitionId: number;
  subjectId: number;
  kind: 'new' | 'renewal';
  renewsLicenceId: number | null;
  fee: number;
  need: TaxCheckNeed;
  tax: { code: string | null; result: TaxResult | null; confirmed: boolean };
  holdsElsewhere: boolean;
}

/**
 * Records an application in the council's tenant (the open one of this subject and portal is
 * answered instead), and opens its case at once when there is no fee.
 */
async function createApplication(
  ctx: ServiceContext,
  mail: CaseMailDeps,
  n: NewApplication,
): Promise<{ app: AppRow; created: boolean }> {
  const customerId = ctx.actor.customerId;
  if (customerId === null) throw new PermissionDeniedError();
  // one open application per subject and portal, also between two requests at once
  await ctx.tx.execute(
    sql`select pg_advisory_xact_lock(hashtext('lms_applications'), ${n.subjectId})`,
  );
  const [open] = await ctx.tx
    .select()
    .from(lmsApplications)
    .where(
      and(
        eq(lmsApplications.subjectId, n.subjectId),
        eq(lmsApplications.portalId, n.portalId),
        inArray(lmsApplications.state, OPEN),
      ),
    )
    .limit(1);
  if (open) return { app: open, created: false };
  const now = ctx.clock.now();
  const state: ApplicationState = n.fee > 0 ? 'awaiting_payment' : 'in_progress';
  const app = await one(
    ctx.tx
      .insert(lmsApplications)
      .values({
        customerId,
        portalId: n.portalId,
        definitionId: n.definitionId,
        subjectId: n.subjectId,
        kind: n.kind,
        renewsLicenceId: n.renewsLicenceId,
        state,
        feePence: n.fee,
        taxCheckNeed: n.need,
        taxCheckCode: n.tax.code,
        taxCheckStatus: n.tax.result?.status ?? 'not_checked',
        taxCheckAt: n.tax.result ? now : null,
        taxCheckMessage: n.tax.result?.message ?? '',
        taxResponsibilitiesConfirmed: n.tax.confirmed,
        holdsLicenceElsewhere: n.holdsElsewhere,
        createdAt: now,
        updatedAt: now,
      })
      .returning(),
  );
  await addAppEvent(ctx, app, 'apply', null, state);
  await recordAudit(ctx.tx, ctx.actor, {
    verb: 'created',
    contentType: APPLICATION_CT,
    objectId: app.id,
    objectRepr: applicationReference(app.id),
    changes: { portal: n.portalId, subject: n.subjectId, kind: n.kind, state, fee_pence: n.fee },
  });
  if (state === 'in_progress') {
    return { app: await openApplicationCase(ctx, mail, app), created: true };
  }
  return { app, created: true };
}

/**
 * The definition's requirements as the council's process for its applications' cases (made once,
 * its requirements kept in step with the definition's).
 */
async function caseProcessFor(ctx: ServiceContext, definitionId: number): Promise<number | null> {
  const def = await one(
    ctx.tx.select().from(licenceDefinitions).where(eq(licenceDefinitions.id, definitionId)),
  );
  if (def.requirements.length === 0) return null;
  const codes = [...new Set(def.requirements.map((q) => q.activity_type))];
  const types = await ctx.tx
    .select({ id: activityTypes.id, code: activityTypes.code })
    .from(activityTypes)
    .where(inArray(activityTypes.code, codes));
  const wanted = def.requirements.flatMap((q, i) => {
    const t = types.find((x) => x.code === q.activity_type);
    return t ? [{ activityTypeId: t.id, position: i, config: q.config }] : [];
  });
  if (wanted.length === 0) return null;
  let processId = def.caseProcessId;
  if (processId !== null) {
    const [p] = await ctx.tx
      .select({ id: processes.id })
      .from(processes)
      .where(eq(processes.id, processId));
    if (!p) processId = null;
  }
  if (processId === null) {
    const p = await one(
      ctx.tx
        .insert(processes)
        .values({
          customerId: def.customerId,
          name: `Licence: ${def.name}`.slice(0, 100),
          description: 'The checks of a licence application (licensing).',
          // the applicant is sent to the case portal by the application itself
          sendInvitation: false,
        })
        .returning({ id: processes.id }),
    );
    processId = p.id;
    await ctx.tx
      .update(licenceDefinitions)
      .set({ caseProcessId: processId })
      .where(eq(licenceDefinitions.id, def.id));
  }
  const have = await ctx.tx
    .select()
    .from(processRequirements)
    .where(eq(processRequirements.processId, processId))
    .orderBy(asc(processRequirements.position), asc(processRequirements.id));
  const same =
    have.length === wanted.length &&
    have.every(
      (h, i) =>
        h.activityTypeId === wanted[i]?.activityTypeId &&
        JSON.stringify(h.config) === JSON.stringify(wanted[i]?.config),
    );
  if (!same) {
    if (have.length > 0) {
      await ctx.tx.delete(processRequirements).where(eq(processRequirements.processId, processId));
    }
    const pid = processId;
    await ctx.tx
      .insert(processRequirements)
      .values(wanted.map((w) => ({ ...w, customerId: def.customerId, processId: pid })));
  }
  return processId;
}

/**
 * Opens the case of an application exactly once (the row locked; a case already opened is kept):
 * on applying without a fee, or once the fee is paid. The application goes in progress.
 */
export async function openApplicationCase(
  ctx: ServiceContext,
  mail: CaseMailDeps,
  given: AppRow,
): Promise<AppRow> {
  const app = await one(
    ctx.tx
      .select()
      .from(lmsApplications)
      .where(
        and(eq(lmsApplications.customerId, given.customerId), eq(lmsApplications.id, given.id)),
      )
      .for('update'),
  );
  if (app.caseId !== null) return app;
  const processId = await caseProcessFor(ctx, app.definitionId);
  let caseId: number | null = null;
  if (processId !== null) {
    const opened = await openCase(ctx, mail, { process: processId, subject: app.subjectId });
    caseId = opened.id;
  }
  const now = ctx.clock.now();
  return one(
    ctx.tx
      .update(lmsApplications)
      .set({
        caseId,
        state: app.state === 'awaiting_payment' ? 'in_progress' : app.state,
        updatedAt: now,
      })
      .where(and(eq(lmsApplications.customerId, app.customerId), eq(lmsApplications.id, app.id)))
      .returning(),
  );
}

/**
 * The fee of an application is paid: recorded once, and its case opened exactly once. Called by
 * the council recording a payment taken elsewhere (POST .../record-payment/), and meant for the
 * payment portal's success once payments settles licence fees.
 */
export async function applicationPaid(
  ctx: ServiceContext,
  mail: CaseMailDeps,
  applicationId: number,
  note: string,
): Promise<AppRow> {
  const app = await lockApp(ctx, applicationId);
  if (app.state !== 'awaiting_payment') {
    if (app.paidAt !== null) return app;
    throw ValidationError.of(
      'non_field_errors',
      `An application ${APPLICATION_STATE_LABELS[app.state].toLowerCase()} has no fee to pay.`,
    );
  }
  const now = ctx.clock.now();
  await ctx.tx
    .update(lmsApplications)
    .set({ paidAt: now, updatedAt: now })
    .where(and(eq(lmsApplications.customerId, app.customerId), eq(lmsApplications.id, app.id)));
  await addAppEvent(ctx, app, 'paid', 'awaiting_payment', 'in_progress', note);
  await audit(ctx, app, { paid: formatPence(app.feePence), note });
  return openApplicationCase(ctx, mail, app);
}

/**
 * The payment portal's link of an application's fee: the page names the licence application
 * (`for=licence`) and, once paid, continues to the applicant's dashboard (`next`), where the
 * application shows.
 */
export function feePaymentLink(url: string): string {
  return `${url}?next=${encodeURIComponent('/s/dashboard')}&for=licence`;
}

/** The payment intents' purpose of an application's fee (payments' paymentPurposes). */
export const FEE_PURPOSE = 'lms_application';

/**
 * The fee paid through the payment portal (application-paid-job.ts, after the payments webhook):
 * recorded and the case opened, once; nothing when the application no longer awaits its fee (paid
 * already, withdrawn, or the council recorded the payment itself).
 */
export async function applicationFeePaid(
  ctx: ServiceContext,
  mail: CaseMailDeps,
  applicationId: number,
  payment: string,
): Promise<void> {
  const app = await lockApp(ctx, applicationId);
  if (app.state !== 'awaiting_payment') return;
  await applicationPaid(ctx, mail, applicationId, `Paid through the payment portal (${payment}).`);
}

/**
 * The payment portal's link of an application awaiting its fee: its intent awaiting payment, made
 * when there is none (the system's transaction: an applicant may not add intents).
 */
async function feePaymentUrl(deps: ContextDeps, app: AppRow): Promise<string> {
  return runAsSystem(
    deps,
    async (ctx) => {
      const [def] = await ctx.tx
        .select({ name: licenceDefinitions.name })
        .from(licenceDefinitions)
        .where(
          and(
            eq(licenceDefinitions.customerId, app.customerId),
            eq(licenceDefinitions.id, app.definitionId),
          ),
        );
      const made = await createPurposeIntent(ctx, {
        customerId: app.customerId,
        purpose: FEE_PURPOSE,
        purposeId: app.id,
        amountPence: app.feePence,
        reason: `Licence application fee: ${def?.name ?? applicationReference(app.id)}`,
      });
      return feePaymentLink(made.url);
    },
    jobActor(app.customerId),
  );
}

/** POST /api/lms/s/application-portals/{id}/apply/. */
export async function applyOnPortal(
  deps: ContextDeps,
  mail: CaseMailDeps,
  actor: Actor,
  portalId: number,
  input: ApplicationApplyInput,
): Promise<{ out: ApplicationApplyOut; created: boolean }> {
  const facts = await portalFacts(deps, actor, portalId, input.holds_licence_elsewhere === true);
  const today = isoDate(deps.clock.now());
  const renewal = facts.kind === 'renewal';
  if (renewal && facts.renewable === null) {
    throw ValidationError.of('non_field_errors', APPLICATION_MESSAGES.renewalNeedsLicence);
  }
  const existing = facts.subjectId
    ? await runInTenant(deps, applicantActor(actor, facts.customer), ({ tx }) =>
        tx
          .select()
          .from(lmsApplications)
          .where(
            and(
              eq(lmsApplications.subjectId, facts.subjectId ?? 0),
              eq(lmsApplications.portalId, facts.portal),
              inArray(lmsApplications.state, OPEN),
            ),
          )
          .limit(1),
      )
    : [];
  const [open] = existing;
  if (open) return { out: await applyOutWithFee(deps, open), created: false };
  const person = { first: facts.login.first, last: facts.login.last, dob: facts.login.dob };
  const tax = await startingTaxCheck(facts.reason, input, person, today);
  const { app, created: made } = await runInTenant(
    deps,
    applicantActor(actor, facts.customer),
    async (ctx) => {
      let subjectId = facts.subjectId;
      if (subjectId === null) {
        const row = await insertSubject(ctx.tx, ctx.actor, facts.customer, {
          first_name: facts.login.first || 'Applicant',
          middlename: facts.login.middle,
          last_name: facts.login.last || 'Applicant',
          email: facts.login.email,
          dob: facts.login.dob ?? undefined,
          phone_number: undefined,
        });
        subjectId = row.id;
      }
      return createApplication(ctx, mail, {
        portalId: facts.portal,
        definitionId: facts.definition,
        subjectId,
        kind: facts.kind,
        renewsLicenceId: facts.renewable,
        fee: facts.fee,
        need: facts.reason === null ? 'confirm' : 'code',
        tax,
        holdsElsewhere: input.holds_licence_elsewhere === true,
      });
    },
  );
  return { out: await applyOutWithFee(deps, app), created: made };
}

/** The answer of an application: next, the payment portal when its fee awaits payment. */
async function applyOutWithFee(deps: ContextDeps, app: AppRow): Promise<ApplicationApplyOut> {
  return {
    application_id: app.id,
    state: app.state,
    next_url:
      app.state === 'awaiting_payment'
        ? await feePaymentUrl(deps, app)
        : (nextUrlOf(app) ?? `/s/lms/applications/${app.id}`),
  };
}

// ---- the subject's applications ----

/**
 * The holder's "Renew" of their granted applications (by application id): the latest granted
 * application of a licence that can be renewed (the domain's isRenewableLicence, the council's
 * rule too) leads to its definition's open renewal portal, when the council has one.
 */
async function renewUrlsOf(
  tx: Tx,
  rows: {
    app: AppRow;
    licenceStatus: LicenceStatus | null;
    licenceExpiry: string | null;
  }[],
  today: string,
): Promise<Map<number, string>> {
  const renewable = rows.filter(
    (r) =>
      r.app.state === 'granted' &&
      r.app.licenceId !== null &&
      r.licenceStatus !== null &&
      r.licenceExpiry !== null &&
      isRenewableLicence({ status: r.licenceStatus, expiryDate: r.licenceExpiry }, today),
  );
  const urls = new Map<number, string>();
  if (renewable.length === 0) return urls;
  const latest = await tx
    .select({
      customer: lmsApplications.customerId,
      licence: lmsApplications.licenceId,
      id: sql<number>`max(${lmsApplications.id})`.mapWith(Number),
    })
    .from(lmsApplications)
    .where(
      and(
        eq(lmsApplications.state, 'granted'),
        or(
          ...renewable.map((r) =>
            and(
              eq(lmsApplications.customerId, r.app.customerId),
              eq(lmsApplications.licenceId, r.app.licenceId ?? 0),
            ),
          ),
        ),
      ),
    )
    .groupBy(lmsApplications.customerId, lmsApplications.licenceId);
  const latestIds = new Set(latest.map((l) => l.id));
  const own = renewable.filter((r) => latestIds.has(r.app.id));
  if (own.length === 0) return urls;
  const portals = await publicPortals(
    tx,
    { pageSize: 100, offset: 0 },
    { renewalOf: [...new Set(own.map((r) => r.app.definitionId))] },
  );
  for (const r of own) {
    // the first open renewal portal of the definition (by id, as the council's renewal takes)
    const portal = portals.results
      .filter((p) => p.customer === r.app.customerId && p.definition === r.app.definitionId)
      .sort((a, b) => a.id - b.id)[0];
    if (portal) urls.set(r.app.id, `/s/application-portals/${portal.id}`);
  }
  return urls;
}

/** GET /api/lms/s/applications/ (and /{id}/): the login's applications at every council. */
export async function subjectApplications(
  deps: ContextDeps,
  actor: Actor,
  page: Page,
  id?: number,
): Promise<Paged<SubjectApplicationOut>> {
  const login = loginOf(actor);
  return runAsSystem(
    deps,
    async ({ tx, clock }) => {
      const where = and(
        eq(subjects.userId, login),
        id === undefined ? undefined : eq(lmsApplications.id, id),
      );
      const base = () =>
        tx
          .select({
            app: lmsApplications,
            portalTitle: lmsApplicationPortals.title,
            definitionName: licenceDefinitions.name,
            customerName: customers.name,
            licenceNumber: licences.number,
            licenceStatus: licences.status,
            licenceExpiry: licences.expiryDate,
            feeIntent: paymentIntents.publicId,
          })
          .from(lmsApplications)
          .innerJoin(subjects, onApplication(subjects, lmsApplications.subjectId))
          .innerJoin(
            lmsApplicationPortals,
            onApplication(lmsApplicationPortals, lmsApplications.portalId),
          )
          .innerJoin(
            licenceDefinitions,
            onApplication(licenceDefinitions, lmsApplications.definitionId),
          )
          .innerJoin(customers, eq(customers.id, lmsApplications.customerId))
          .leftJoin(licences, onApplication(licences, lmsApplications.licenceId))
          // the fee's intent awaiting payment (at most one: a partial unique index)
          .leftJoin(
            paymentIntents,
            and(
              eq(paymentIntents.customerId, lmsApplications.customerId),
              eq(paymentIntents.purpose, FEE_PURPOSE),
              eq(paymentIntents.purposeId, lmsApplications.id),
              eq(paymentIntents.outcome, 'awaiting'),
            ),
          );
      const count = await countApplications(tx, where);
      const rows = await base()
        .where(where)
        .orderBy(desc(lmsApplications.createdAt), desc(lmsApplications.id))
        .limit(page.pageSize)
        .offset(page.offset);
      const renewUrls = await renewUrlsOf(tx, rows, isoDate(clock.now()));
      return {
        count,
        results: rows.map((r) => ({
          id: r.app.id,
          reference: applicationReference(r.app.id),
          portal: r.app.portalId,
          portal_title: r.portalTitle,
          definition_name: r.definitionName,
          customer: r.app.customerId,
          customer_name: r.customerName,
          kind: r.app.kind,
          kind_label: APPLICATION_KIND_LABELS[r.app.kind],
          state: r.app.state,
          state_label: APPLICATION_STATE_LABELS[r.app.state],
          fee_pence: r.app.feePence,
          fee_display: formatPence(r.app.feePence),
          next_url:
            r.app.state === 'awaiting_payment' && r.feeIntent !== null
              ? feePaymentLink(paymentPortalPath(r.feeIntent))
              : nextUrlOf(r.app),
          case_id: r.app.caseId,
          licence_number: r.licenceNumber ?? null,
          renew_url: renewUrls.get(r.app.id) ?? null,
          submitted_at: iso(r.app.createdAt),
          info_request: r.app.state === 'more_info_requested' ? r.app.infoRequest : null,
        })),
      };
    },
    actor,
  );
}

/** POST /api/lms/s/applications/{id}/respond/: the subject answers; back in progress. */
export async function respondToRequest(
  deps: ContextDeps,
  actor: Actor,
  id: number,
  message: string,
): Promise<SubjectApplicationOut> {
  const [mine] = (await subjectApplications(deps, actor, { pageSize: 1, offset: 0 }, id)).results;
  if (!mine) throw new NotFoundError();
  await runInTenant(deps, applicantActor(actor, mine.customer), async (ctx) => {
    const app = await lockApp(ctx, id);
    if (app.state !== 'more_info_requested') {
      throw ValidationError.of('non_field_errors', APPLICATION_MESSAGES.notAwaitingInfo);
    }
    await moveApp(ctx, app, 'in_progress', { infoRequest: null });
    await addAppEvent(ctx, app, 'respond', app.state, 'in_progress', message);
    await audit(ctx, app, { state: [app.state, 'in_progress'], response: message });
  });
  const [after] = (await subjectApplications(deps, actor, { pageSize: 1, offset: 0 }, id)).results;
  if (!after) throw new NotFoundError();
  return after;
}

/**
 * POST /api/lms/s/applications/{id}/withdraw/: the subject withdraws an open application (its
 * case, if any, stays with the council); 400 once decided.
 */
export async function withdrawApplication(
  deps: ContextDeps,
  actor: Actor,
  id: number,
): Promise<SubjectApplicationOut> {
  const [mine] = (await subjectApplications(deps, actor, { pageSize: 1, offset: 0 }, id)).results;
  if (!mine) throw new NotFoundError();
  await runInTenant(deps, applicantActor(actor, mine.customer), (ctx) =>
    withdrawOpenApplication(ctx, id),
  );
  const [after] = (await subjectApplications(deps, actor, { pageSize: 1, offset: 0 }, id)).results;
  if (!after) throw new NotFoundError();
  return after;
}

/**
 * Withdraws open application `id` in `ctx`'s transaction, recorded (event, audit) as `ctx`'s
 * actor's: the subject's withdrawal, or an erasure's (issue 34); 400 once decided.
 */
export async function withdrawOpenApplication(ctx: ServiceContext, id: number): Promise<void> {
  const app = await lockApp(ctx, id);
  if (!isOpenApplicationState(app.state)) {
    throw ValidationError.of('non_field_errors', APPLICATION_MESSAGES.notWithdrawable);
  }
  await moveApp(ctx, app, 'withdrawn', { decidedAt: ctx.clock.now(), infoRequest: null });
  await addAppEvent(ctx, app, 'withdraw', app.state, 'withdrawn');
  await audit(ctx, app, { state: [app.state, 'withdrawn'] });
}

// ---- the council's side ----

export interface ApplicationFilters {
  state: ApplicationState[];
  definition: number | null;
  portal: number | null;
  /** Lower-cased: a name or email prefix, or a reference (APP-000012 or 12). */
  q: string | null;
}

async function lockApp(ctx: ServiceContext, id: number): Promise<AppRow> {
  return one(
    ctx.tx.select().from(lmsApplications).where(eq(lmsApplications.id, id)).limit(1).for('update'),
  );
}

async function moveApp(
  ctx: ServiceContext,
  app: AppRow,
  to: ApplicationState,
  more: Partial<typeof lmsApplications.$inferInsert> = {},
): Promise<void> {
  await ctx.tx
    .update(lmsApplications)
    .set({ ...more, state: to, updatedAt: ctx.clock.now() })
    .where(and(eq(lmsApplications.customerId, app.customerId), eq(lmsApplications.id, app.id)));
}

async function audit(ctx: ServiceContext, app: AppRow, changes: Record<string, unknown>) {
  await recordAudit(ctx.tx, ctx.actor, {
    verb: 'updated',
    contentType: APPLICATION_CT,
    objectId: app.id,
    objectRepr: applicationReference(app.id),
    changes,
  });
}

async function presentApplications(tx: Tx, rows: AppRow[]): Promise<ApplicationOut[]> {
  if (rows.length === 0) return [];
  const uniq = (xs: number[]) => [...new Set(xs)];
  const [portals, defs, people, lics, acts] = await Promise.all([
    tx
      .select({ id: lmsApplicationPortals.id, title: lmsApplicationPortals.title })
      .from(lmsApplicationPortals)
      .where(inArray(lmsApplicationPortals.id, uniq(rows.map((r) => r.portalId)))),
    tx
      .select({ id: licenceDefinitions.id, name: licenceDefinitions.name })
      .from(licenceDefinitions)
      .where(inArray(licenceDefinitions.id, uniq(rows.map((r) => r.definitionId)))),
    tx
      .select()
      .from(subjects)
      .where(inArray(subjects.id, uniq(rows.map((r) => r.subjectId)))),
    tx
      .select({ id: licences.id, number: licences.number })
      .from(licences)
      .where(inArray(licences.id, uniq(rows.flatMap((r) => (r.licenceId ? [r.licenceId] : []))))),
    tx
      .select({
        caseId: caseActivities.caseId,
        state: caseActivities.state,
        code: activityTypes.code,
        name: activityTypes.name,
        position: caseActivities.position,
      })
      .from(caseActivities)
      .innerJoin(activityTypes, eq(activityTypes.id, caseActivities.activityTypeId))
      .where(
        inArray(caseActivities.caseId, uniq(rows.flatMap((r) => (r.caseId ? [r.caseId] : [])))),
      )
      .orderBy(asc(caseActivities.position), asc(caseActivities.id)),
  ]);
  return rows.map((r) => {
    const person = people.find((p) => p.id === r.subjectId);
    const checks = acts
      .filter((a) => r.caseId !== null && a.caseId === r.caseId)
      .map((a) => ({
        kind: a.code,
        label: a.name,
        state: a.state,
        state_label: isCaseActivityState(a.state) ? CASE_ACTIVITY_STATE_LABELS[a.state] : a.state,
      }));
    return {
      id: r.id,
      reference: applicationReference(r.id),
      portal: r.portalId,
      portal_title: portals.find((p) => p.id === r.portalId)?.title ?? '',
      definition: r.definitionId,
      definition_name: defs.find((d) => d.id === r.definitionId)?.name ?? '',
      kind: r.kind,
      kind_label: APPLICATION_KIND_LABELS[r.kind],
      renews_licence: r.renewsLicenceId,
      applicant: {
        subject: r.subjectId,
        name: person ? `${person.firstName} ${person.lastName}`.trim() : '',
        email: person?.email ?? '',
        dob: person?.dob ?? null,
      },
      state: r.state,
      state_label: APPLICATION_STATE_LABELS[r.state],
      fee_pence: r.feePence,
      fee_display: formatPence(r.feePence),
      payment_intent_id: r.paymentIntentId,
      case_id: r.caseId,
      checks,
      checks_done: checks.filter((c) => c.state === 'ca-complete').length,
      checks_total: checks.length,
      tax_check: {
        needed: r.taxCheckNeed,
        code: r.taxCheckCode,
        status: r.taxCheckStatus,
        status_label: TAX_CHECK_STATUS_LABELS[r.taxCheckStatus],
        checked_at: r.taxCheckAt ? iso(r.taxCheckAt) : null,
        message:
          r.taxCheckNeed === 'confirm'
            ? r.taxResponsibilitiesConfirmed
              ? 'The applicant confirmed they are aware of their tax responsibilities.'
              : ''
            : r.taxCheckMessage,
      },
      decision_reason: r.decisionReason,
      info_request: r.state === 'more_info_requested' ? r.infoRequest : null,
      licence_id: r.licenceId,
      licence_number: lics.find((l) => l.id === r.licenceId)?.number ?? null,
      submitted_at: iso(r.createdAt),
      decided_at: r.decidedAt ? iso(r.decidedAt) : null,
    };
  });
}

export async function listApplications(
  ctx: ServiceContext,
  page: Page,
  f: ApplicationFilters,
): Promise<Paged<ApplicationOut>> {
  const ref = f.q === null ? null : /^(?:app-?)?0*(\d{1,9})$/.exec(f.q);
  const where = and(
    f.state.length ? inArray(lmsApplications.state, f.state) : undefined,
    f.definition === null ? undefined : eq(lmsApplications.definitionId, f.definition),
    f.portal === null ? undefined : eq(lmsApplications.portalId, f.portal),
    f.q === null
      ? undefined
      : or(
          sql`${subjects.searchFull} like ${`${f.q}%`}`,
          sql`${subjects.searchLast} like ${`${f.q}%`}`,
          sql`${subjects.searchEmail} like ${`${f.q}%`}`,
          ref ? eq(lmsApplications.id, Number(ref[1])) : undefined,
        ),
  );
  const from = () =>
    ctx.tx
      .select({ a: lmsApplications })
      .from(lmsApplications)
      .innerJoin(subjects, onApplication(subjects, lmsApplications.subjectId));
  const count = await countApplications(ctx.tx, where);
  const rows = await from()
    .where(where)
    .orderBy(desc(lmsApplications.createdAt), desc(lmsApplications.id))
    .limit(page.pageSize)
    .offset(page.offset);
  return {
    count,
    results: await presentApplications(
      ctx.tx,
      rows.map((r) => r.a),
    ),
  };
}

export async function getApplication(
  ctx: ServiceContext,
  id: number,
): Promise<ApplicationDetailOut> {
  const row = await one(
    ctx.tx.select().from(lmsApplications).where(eq(lmsApplications.id, id)).limit(1),
  );
  const [out] = await presentApplications(ctx.tx, [row]);
  if (!out) throw new NotFoundError();
  const events = await ctx.tx
    .select()
    .from(lmsApplicationEvents)
    .where(eq(lmsApplicationEvents.applicationId, id))
    .orderBy(asc(lmsApplicationEvents.createdAt), asc(lmsApplicationEvents.id));
  const { rows: matches } = await registerEntries(ctx.tx, {
    person: {
      subjectId: row.subjectId,
      name: out.applicant.name.toLowerCase(),
      dob: out.applicant.dob,
    },
    excludeApplication: row.id,
  });
  return {
    ...out,
    register_matches: matches,
    events: events.map((e) => ({
      id: e.id,
      action: e.action,
      from_state: e.fromState,
      to_state: e.toState,
      message: e.message,
      actor_name: e.actorName,
      created_at: iso(e.createdAt),
    })),
  };
}

/**
 * POST /api/lms/applications/{id}/grant/: issues the licence, or extends the renewed one: a
 * renewal's, or the holder's active licence of the type when they hold one (grantEffect: one
 * licence of a type per person; a suspended one is 409).
 */
export async function grantApplication(
  ctx: ServiceContext,
  id: number,
  conditions: string,
): Promise<ApplicationDetailOut> {
  const app = await lockApp(ctx, id);
  if (app.state !== 'in_progress') {
    throw ValidationError.of(
      'non_field_errors',
      APPLICATION_MESSAGES.notDecidable(APPLICATION_STATE_LABELS[app.state]),
    );
  }
  const [out] = await presentApplications(ctx.tx, [app]);
  const pending = (out?.checks ?? []).filter((c) => c.state !== 'ca-complete');
  if (pending.length > 0) {
    throw ValidationError.of(
      'non_field_errors',
      APPLICATION_MESSAGES.checksIncomplete(pending.map((c) => c.label)),
    );
  }
  if (app.taxCheckNeed === 'code' && app.taxCheckStatus !== 'confirmed') {
    throw ValidationError.of('non_field_errors', APPLICATION_MESSAGES.taxNotConfirmed);
  }
  let licenceId: number;
  // the holder's subject row, locked first: two grants of one person (two applications, or a
  // renewal and a 'new' one) run one after the other, so the second sees the first's licence
  await ctx.tx
    .select({ id: subjects.id })
    .from(subjects)
    .where(eq(subjects.id, app.subjectId))
    .for('update');
  // a 'new' application of a current holder of the type renews their licence (grantEffect)
  const held =
    app.kind === 'renewal'
      ? null
      : grantEffect(
          await ctx.tx
            .select({ id: licences.id, status: licences.status, expiryDate: licences.expiryDate })
            .from(licences)
            .where(
              and(
                eq(licences.customerId, app.customerId),
                eq(licences.holderId, app.subjectId),
                eq(licences.definitionId, app.definitionId),
              ),
            )
            .orderBy(asc(licences.id))
            .for('update'),
          isoDate(ctx.clock.now()),
        );
  if (held?.effect === 'suspended') {
    const lic = await findLicence(ctx.tx, held.licence.id);
    throw new ConflictError(APPLICATION_MESSAGES.holderSuspended(lic.number));
  }
  const renews =
    held?.effect === 'extend'
      ? held.licence.id
      : app.kind === 'renewal'
        ? app.renewsLicenceId
        : null;
  if (renews !== null) {
    // locked: a suspension or revocation made meanwhile waits for this grant, or this sees it
    const old = await one(
      ctx.tx.select().from(licences).where(eq(licences.id, renews)).limit(1).for('update'),
    );
    // a renewal opened on an active licence that was suspended, revoked or surrendered since is
    // not granted (a date past the expiry is not a refusal: the renewal was opened in time)
    if (old.status === 'suspended') {
      throw new ConflictError(APPLICATION_MESSAGES.holderSuspended(old.number));
    }
    if (old.status !== 'active') {
      throw new ConflictError(
        APPLICATION_MESSAGES.renewedLicenceEnded(
          old.number,
          LICENCE_STATUS_LABELS[old.status].toLowerCase(),
        ),
      );
    }
    const def = await one(
      ctx.tx.select().from(licenceDefinitions).where(eq(licenceDefinitions.id, old.definitionId)),
    );
    const expiry = licenceExpiryDate(dayAfter(old.expiryDate), def.durationYears);
    await ctx.tx
      .update(licences)
      .set({
        expiryDate: expiry,
        conditions: conditions || old.conditions,
        updatedAt: ctx.clock.now(),
      })
      .where(eq(licences.id, old.id));
    await recordAudit(ctx.tx, ctx.actor, {
      verb: 'updated',
      contentType: 'lms_licences.licence',
      objectId: old.id,
      objectRepr: old.number,
      changes: { expiry_date: [old.expiryDate, expiry], renewal: applicationReference(app.id) },
    });
    licenceId = old.id;
  } else {
    const lic = await issueLicence(ctx, {
      definition: app.definitionId,
      holder: app.subjectId,
      conditions,
    });
    licenceId = lic.id;
  }
  const now = ctx.clock.now();
  await moveApp(ctx, app, 'granted', {
    licenceId,
    decidedAt: now,
    infoRequest: null,
    // the licence a current holder's 'new' application renewed
    ...(held?.effect === 'extend' ? { renewsLicenceId: licenceId } : {}),
  });
  await addAppEvent(ctx, app, 'grant', app.state, 'granted', conditions);
  await audit(ctx, app, { state: [app.state, 'granted'], licence: licenceId });
  return getApplication(ctx, id);
}

/** POST /api/lms/applications/{id}/refuse/ {reason}. */
export async function refuseApplication(
  ctx: ServiceContext,
  id: number,
  reason: string,
): Promise<ApplicationDetailOut> {
  const app = await lockApp(ctx, id);
  if (!isOpenApplicationState(app.state)) {
    throw ValidationError.of(
      'non_field_errors',
      APPLICATION_MESSAGES.notDecidable(APPLICATION_STATE_LABELS[app.state]),
    );
  }
  await moveApp(ctx, app, 'refused', {
    decisionReason: reason,
    decidedAt: ctx.clock.now(),
    infoRequest: null,
  });
  await addAppEvent(ctx, app, 'refuse', app.state, 'refused', reason);
  await audit(ctx, app, { state: [app.state, 'refused'], reason });
  return getApplication(ctx, id);
}

/** POST /api/lms/applications/{id}/request-info/ {message}. */
export async function requestInfo(
  ctx: ServiceContext,
  id: number,
  message: string,
): Promise<ApplicationDetailOut> {
  const app = await lockApp(ctx, id);
  if (app.state !== 'in_progress') {
    throw ValidationError.of(
      'non_field_errors',
      APPLICATION_MESSAGES.cannotRequestInfo(APPLICATION_STATE_LABELS[app.state]),
    );
  }
  await moveApp(ctx, app, 'more_info_requested', { infoRequest: message });
  await addAppEvent(ctx, app, 'request_info', app.state, 'more_info_requested', message);
  await audit(ctx, app, { state: [app.state, 'more_info_requested'], message });
  return getApplication(ctx, id);
}

/** POST /api/lms/applications/{id}/record-payment/: the fee taken by the council itself. */
export async function recordPayment(
  ctx: ServiceContext,
  mail: CaseMailDeps,
  id: number,
  note: string,
): Promise<ApplicationDetailOut> {
  await applicationPaid(ctx, mail, id, note || 'Payment recorded by the council.');
  return getApplication(ctx, id);
}

/**
 * POST /api/lms/applications/{id}/tax-check/: confirms the code with HMRC now (the question
 * outside the transactions: read, ask, then store the answer).
 */
export async function runTaxCheck(
  deps: ContextDeps,
  actor: Actor,
  id: number,
): Promise<ApplicationDetailOut> {
  const facts = await runInTenant(deps, actor, async ({ tx }) => {
    const app = await one(
      tx.select().from(lmsApplications).where(eq(lmsApplications.id, id)).limit(1),
    );
    const person = await one(
      tx
        .select({ first: subjects.firstName, last: subjects.lastName, dob: subjects.dob })
        .from(subjects)
        .where(eq(subjects.id, app.subjectId)),
    );
    return { app, person };
  });
  if (!facts.app.taxCheckCode) {
    throw ValidationError.of('non_field_errors', APPLICATION_MESSAGES.noTaxCode);
  }
  const result = await askHmrc(facts.app.taxCheckCode, facts.person, isoDate(deps.clock.now()));
  return runInTenant(deps, actor, async (ctx) => {
    const app = await lockApp(ctx, id);
    const now = ctx.clock.now();
    await ctx.tx
      .update(lmsApplications)
      .set({
        taxCheckStatus: result.status,
        taxCheckAt: now,
        taxCheckMessage: result.message,
        updatedAt: now,
      })
      .where(and(eq(lmsApplications.customerId, app.customerId), eq(lmsApplications.id, app.id)));
    await addAppEvent(ctx, app, 'tax_check', app.state, app.state, result.message);
    await audit(ctx, app, { tax_check: [app.taxCheckStatus, result.status] });
    return getApplication(ctx, id);
  });
}

/**
 * POST /api/lms/licences/{id}/renew/ (council): a renewal application of the holder on the
 * definition's renewal portal (given, or its open one), before the licence expires.
 */
export async function renewLicence(
  deps: ContextDeps,
  mail: CaseMailDeps,
  actor: Actor,
  licenceId: number,
  input: { portal?: number | undefined; tax_check_code?: string | undefined },
): Promise<ApplicationDetailOut> {
  const today = isoDate(deps.clock.now());
  const facts = await runInTenant(deps, actor, async ({ tx }) => {
    const lic = await findLicence(tx, licenceId);
    const portals = await tx
      .select()
      .from(lmsApplicationPortals)
      .where(
        and(
          eq(lmsApplicationPortals.definitionId, lic.definitionId),
          eq(lmsApplicationPortals.kind, 'renewal'),
          input.portal === undefined
            ? eq(lmsApplicationPortals.isOpen, true)
            : eq(lmsApplicationPortals.id, input.portal),
        ),
      )
      .orderBy(asc(lmsApplicationPortals.id))
      .limit(1);
    const person = await one(
      tx
        .select({ first: subjects.firstName, last: subjects.lastName, dob: subjects.dob })
        .from(subjects)
        .where(eq(subjects.id, lic.holderId)),
    );
    return { lic, portal: portals[0] ?? null, person };
  });
  if (!isRenewableLicence(facts.lic, today)) {
    throw ValidationError.of('non_field_errors', APPLICATION_MESSAGES.renewalNeedsLicence);
  }
  if (!facts.portal) {
    throw ValidationError.of(
      input.portal === undefined ? 'non_field_errors' : 'portal',
      input.portal === undefined
        ? 'This licence type has no open renewal portal.'
        : 'Invalid pk - object does not exist.',
    );
  }
  const portal = facts.portal;
  const tax = await startingTaxCheck('renewal', input, facts.person, today);
  const id = await runInTenant(deps, actor, async (ctx) => {
    // the licence again, locked, in the transaction that opens the renewal: a suspension or
    // revocation made while HMRC was asked is seen (it waits for this, or this sees it)
    const [now] = await ctx.tx
      .select({ status: licences.status, expiryDate: licences.expiryDate })
      .from(licences)
      .where(eq(licences.id, facts.lic.id))
      .for('update');
    if (!now || !isRenewableLicence(now, today)) {
      throw ValidationError.of('non_field_errors', APPLICATION_MESSAGES.renewalNeedsLicence);
    }
    const { app } = await createApplication(ctx, mail, {
      portalId: portal.id,
      definitionId: facts.lic.definitionId,
      subjectId: facts.lic.holderId,
      kind: 'renewal',
      renewsLicenceId: facts.lic.id,
      fee: portal.feePence,
      need: 'code',
      tax,
      holdsElsewhere: false,
    });
    // one open application per holder and portal: the open one answers only for this licence
    // (answering another licence's renewal would have that one extended, not this)
    if (app.renewsLicenceId !== facts.lic.id) {
      throw new ConflictError(APPLICATION_MESSAGES.renewalOfAnotherOpen);
    }
    return app.id;
  });
  return runInTenant(deps, actor, (ctx) => getApplication(ctx, id));
}

// ---- the register of refusals, suspensions and revocations ----

export interface RegisterFilters {
  /** Lower-cased name prefix (first, last or full) or licence number prefix. */
  q: string | null;
  dob: string | null;
  licenceNumber: string | null;
}

interface RegisterQuery {
  filters?: RegisterFilters;
  /** The same person: their record, or the same name and date of birth. */
  person?: { subjectId: number; name: string; dob: string | null };
  excludeApplication?: number;
}

/** The register's two parts, each in SQL: refusals (applications), suspensions and revocations. */
function registerParts(tx: Tx, query: RegisterQuery) {
  const f = query.filters;
  const personWhere = query.person
    ? or(
        eq(subjects.id, query.person.subjectId),
        query.person.dob === null
          ? undefined
          : and(eq(subjects.searchFull, query.person.name), eq(subjects.dob, query.person.dob)),
      )
    : undefined;
  const filterWhere = and(
    personWhere,
    f?.dob ? eq(subjects.dob, f.dob) : undefined,
    f?.licenceNumber ? eq(licences.number, f.licenceNumber) : undefined,
    f?.q
      ? or(
          sql`${subjects.searchFull} like ${`${f.q}%`}`,
          sql`${subjects.searchLast} like ${`${f.q}%`}`,
          sql`${subjects.searchFirst} like ${`${f.q}%`}`,
          sql`lower(${licences.number}) like ${`${f.q}%`}`,
        )
      : undefined,
  );
  const refusalWhere = and(
    eq(lmsApplications.state, 'refused'),
    query.excludeApplication === undefined
      ? undefined
      : ne(lmsApplications.id, query.excludeApplication),
    filterWhere,
  );
  const actionWhere = and(inArray(licenceEvents.action, ['suspend', 'revoke']), filterWhere);
  const refusalJoins = <Q extends PgSelect>(q: Q) =>
    q
      .innerJoin(subjects, onApplication(subjects, lmsApplications.subjectId))
      .innerJoin(
        licenceDefinitions,
        onApplication(licenceDefinitions, lmsApplications.definitionId),
      )
      .leftJoin(licences, onApplication(licences, lmsApplications.renewsLicenceId))
      .where(refusalWhere);
  const actionJoins = <Q extends PgSelect>(q: Q) =>
    q
      .innerJoin(
        licences,
        and(
          eq(licences.customerId, licenceEvents.customerId),
          eq(licences.id, licenceEvents.licenceId),
        ),
      )
      .innerJoin(
        subjects,
        and(eq(subjects.customerId, licences.customerId), eq(subjects.id, licences.holderId)),
      )
      .innerJoin(
        licenceDefinitions,
        and(
          eq(licenceDefinitions.customerId, licences.customerId),
          eq(licenceDefinitions.id, licences.definitionId),
        ),
      )
      .where(actionWhere);
  // one shape for both (a union's columns by position): the entry's time, then a tie-break
  const refusals = refusalJoins(
    tx
      .select({
        kind: sql<RegisterKind>`'refusal'::text`.as('kind'),
        subject: lmsApplications.subjectId,
        first: subjects.firstName,
        last: subjects.lastName,
        dob: subjects.dob,
        licenceId: lmsApplications.renewsLicenceId,
        licenceNumber: licences.number,
        applicationId: sql<number | null>`${lmsApplications.id}`.as('application_id'),
        definitionName: licenceDefinitions.name,
        reason: lmsApplications.decisionReason,
        at: sql<Date>`coalesce(${lmsApplications.decidedAt}, ${lmsApplications.updatedAt})`
          .mapWith(lmsApplications.updatedAt)
          .as('at'),
        tie: sql<number>`${lmsApplications.id}`.as('tie'),
      })
      .from(lmsApplications)
      .$dynamic(),
  );
  const actions = actionJoins(
    tx
      .select({
        kind: sql<RegisterKind>`case when ${licenceEvents.action} = 'revoke' then 'revocation' else 'suspension' end`.as(
          'kind',
        ),
        subject: licences.holderId,
        first: subjects.firstName,
        last: subjects.lastName,
        dob: subjects.dob,
        licenceId: licences.id,
        licenceNumber: licences.number,
        applicationId: sql<number | null>`null::integer`.as('application_id'),
        definitionName: licenceDefinitions.name,
        reason: licenceEvents.reason,
        at: sql<Date>`${licenceEvents.createdAt}`.mapWith(licenceEvents.createdAt).as('at'),
        tie: sql<number>`${licenceEvents.id}`.as('tie'),
      })
      .from(licenceEvents)
      .$dynamic(),
  );
  const count = async () => {
    const [a] = await refusalJoins(tx.select({ n: countOf }).from(lmsApplications).$dynamic());
    const [b] = await actionJoins(tx.select({ n: countOf }).from(licenceEvents).$dynamic());
    return (a?.n ?? 0) + (b?.n ?? 0);
  };
  return { refusals, actions, count };
}

/**
 * Refusals (applications) and suspensions and revocations (licence events), newest first, a page
 * of them (or all, for a person), merged, ordered and paged in SQL (a union of the two).
 */
async function registerEntries(
  tx: Tx,
  query: RegisterQuery,
  page?: Page,
): Promise<{ rows: RegisterEntryOut[]; count: () => Promise<number> }> {
  const parts = registerParts(tx, query);
  const ordered = unionAll(parts.refusals, parts.actions).orderBy(
    sql`"at" desc`,
    sql`"kind"`,
    sql`"tie" desc`,
  );
  const rows = page ? await ordered.limit(page.pageSize).offset(page.offset) : await ordered;
  return {
    count: parts.count,
    rows: rows.map((r) => ({
      kind: r.kind,
      kind_label: REGISTER_KIND_LABELS[r.kind],
      subject: r.subject,
      name: `${r.first} ${r.last}`.trim(),
      dob: r.dob,
      licence_id: r.licenceId,
      licence_number: r.licenceNumber ?? null,
      application_id: r.applicationId,
      definition_name: r.definitionName,
      reason: r.reason,
      date: iso(r.at),
    })),
  };
}

/** GET /api/lms/register/?q=&dob=&licence_number=: one page of the council's register. */
export async function searchRegister(
  ctx: ServiceContext,
  page: Page,
  filters: RegisterFilters,
): Promise<Paged<RegisterEntryOut>> {
  return registerPage(ctx.tx, page, filters);
}

/** One page of the register and its count, both in SQL (the plan test reads its statements). */
export async function registerPage(
  tx: Tx,
  page: Page,
  filters: RegisterFilters,
): Promise<Paged<RegisterEntryOut>> {
  const found = await registerEntries(tx, { filters }, page);
  return { count: await found.count(), results: found.rows };
}
