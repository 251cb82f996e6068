import { addMonths } from 'date-fns/addMonths';
import { z } from 'zod';
import { formatDate } from './formatting.js';

/*
 * Retention and automatic redaction (issue 34): the rules a customer's data follow, their safe
 * defaults, and what a redaction keeps. The server's scheduled job applies them; the customer's
 * settings page (/customer-account/retention) edits the periods.
 */

/** The kinds of criminal-record check (their activity kinds' codes). */
export const CRIMINAL_RECORD_CHECKS = [
  'dbs-basic',
  'dbs-standard',
  'dbs-enhanced',
  'dbs-update',
  'adult-first',
] as const;
/** The kinds of driving check. */
export const DRIVING_CHECKS = ['driver-data', 'licence-check'] as const;
/** The kinds of identity check whose documents are identity document images. */
export const IDENTITY_CHECKS = ['document-collection', 'online-idv'] as const;
/** The right-to-work check. */
export const RTW_CHECKS = ['rtw'] as const;

/** What a rule removes: an activity's result content, a document's files, or a whole case's. */
export const RETENTION_DATA_KINDS = ['result-content', 'document-images', 'case'] as const;
export type RetentionDataKind = (typeof RETENTION_DATA_KINDS)[number];

/**
 * The date a rule counts from: the case's decision (its completion with a decision), the case's
 * completion, the end of the subject's employment (recorded by the customer per case), or the
 * case's closing (cancelled or archived).
 */
export const RETENTION_BASES = ['decision', 'completion', 'employment-end', 'closure'] as const;
export type RetentionBasis = (typeof RETENTION_BASES)[number];

export const RETENTION_RULE_CODES = [
  'criminal-record-content',
  'criminal-record-images',
  'identity-images',
  'rtw-images',
  'driving-results',
  'closed-cases',
] as const;
export type RetentionRuleCode = (typeof RETENTION_RULE_CODES)[number];

export interface RetentionRule {
  code: RetentionRuleCode;
  name: string;
  /** The kinds of check (activity kinds) it applies to; empty: every kind. */
  checks: readonly string[];
  data: RetentionDataKind;
  basis: RetentionBasis;
  /** The safe default period, in months after the basis date. */
  defaultMonths: number;
  /** Whether a customer inspected by CQC, Ofsted or CSSIW keeps it until its next inspection. */
  untilInspection: boolean;
  /** What the redaction keeps, in words (shown on the settings page). */
  keeps: string;
}

/** The bounds of a period a customer may set, in months. */
export const RETENTION_MIN_MONTHS = 1;
export const RETENTION_MAX_MONTHS = 120;

/** Every rule with its safe default (the DBS code of practice; the Home Office's RTW guidance). */
export const RETENTION_RULES: readonly RetentionRule[] = [
  {
    code: 'criminal-record-content',
    name: 'Criminal-record disclosure content',
    checks: CRIMINAL_RECORD_CHECKS,
    data: 'result-content',
    basis: 'decision',
    defaultMonths: 6,
    untilInspection: true,
    keeps: 'The date, reference, level, certificate number and outcome',
  },
  {
    code: 'criminal-record-images',
    name: 'Criminal-record certificate images',
    checks: CRIMINAL_RECORD_CHECKS,
    data: 'document-images',
    basis: 'decision',
    defaultMonths: 6,
    untilInspection: true,
    keeps: 'The document’s type and date',
  },
  {
    code: 'identity-images',
    name: 'Identity document images',
    checks: IDENTITY_CHECKS,
    data: 'document-images',
    basis: 'completion',
    defaultMonths: 6,
    untilInspection: false,
    keeps: 'The document’s type and date',
  },
  {
    code: 'rtw-images',
    name: 'Right-to-work evidence',
    checks: RTW_CHECKS,
    data: 'document-images',
    basis: 'employment-end',
    defaultMonths: 24,
    untilInspection: false,
    keeps: 'The document’s type and date',
  },
  {
    code: 'driving-results',
    name: 'Driving data and results',
    checks: DRIVING_CHECKS,
    data: 'result-content',
    basis: 'completion',
    defaultMonths: 12,
    untilInspection: false,
    keeps: 'The date and outcome',
  },
  {
    code: 'closed-cases',
    name: 'Cancelled and archived cases',
    checks: [],
    data: 'case',
    basis: 'closure',
    defaultMonths: 12,
    untilInspection: false,
    keeps: 'The case’s reference, dates and state',
  },
];

export function retentionRule(code: RetentionRuleCode): RetentionRule {
  const rule = RETENTION_RULES.find((r) => r.code === code);
  if (!rule) throw new Error(`Unknown retention rule ${code}`);
  return rule;
}

/*
 * Records no rule above covers, expired by the same scheduled job (issue 34).
 */

/**
 * Messages in the local outbox (the default mail provider's emails, the SMS simulator's texts:
 * names, addresses, links) are deleted this many days after they were written.
 */
export const OUTBOX_RETENTION_DAYS = 30;

/**
 * Webhook deliveries' request payloads (the event's data: subjects' names) and the receiver's
 * response excerpts are blanked this many days after the delivery was made; the delivery row (its
 * event, status, attempts and times) stays as the endpoint's log.
 */
export const WEBHOOK_PAYLOAD_RETENTION_DAYS = 30;
/** What a blanked delivery's payload holds instead of the event. */
export const EXPIRED_PAYLOAD = { redacted: 'retention' } as const;
/** A resend of a delivery whose payload was blanked: nothing is left to send. */
export const WEBHOOK_PAYLOAD_EXPIRED = `This delivery's content was removed ${WEBHOOK_PAYLOAD_RETENTION_DAYS} days after it was sent, under the retention policy: it cannot be resent.`;

/**
 * A finished import's (completed or failed) rows lose the values read from the file this many
 * days after it finished; each row's number, outcome and errors stay for the result report.
 */
export const IMPORT_ROWS_RETENTION_DAYS = 30;

/**
 * The job queue's finished jobs (pg-boss moves them to its archive: completed ones 12 hours after
 * they ran, failed ones after the 14 days ops may retry them) lose their payload and output (an
 * email's recipient and text, an import's rows) this many days after they were archived.
 */
export const JOB_PAYLOAD_RETENTION_DAYS = 1;

/**
 * The record of who saw a criminal-record result, a driving record or a document is kept this
 * many months after the last view, or longer when the customer keeps criminal-record information
 * longer (`accessLogMonths`): the record of to whom certificate information was revealed lasts
 * at least as long as the information.
 */
export const ACCESS_LOG_RETENTION_MONTHS = 24;

/** How long a customer's access log is kept: the longer of the default and its criminal-record periods. */
export function accessLogMonths(settings: RetentionSettings): number {
  return Math.max(
    ACCESS_LOG_RETENTION_MONTHS,
    ruleMonths(settings, 'criminal-record-content'),
    ruleMonths(settings, 'criminal-record-images'),
  );
}

/** The regulators whose inspections let criminal-record information be kept until they come. */
export const INSPECTORS = ['CQC', 'Ofsted', 'CSSIW'] as const;
export type Inspector = (typeof INSPECTORS)[number];

/** A customer's settings: its periods per rule (defaults where unset) and its inspector. */
export interface RetentionSettings {
  inspector: Inspector | null;
  /** 'YYYY-MM-DD'. */
  nextInspectionDate: string | null;
  months: Partial<Record<RetentionRuleCode, number>>;
}

/** The period a customer's rule runs for: its own, or the default. */
export function ruleMonths(settings: RetentionSettings, code: RetentionRuleCode): number {
  return settings.months[code] ?? retentionRule(code).defaultMonths;
}

/**
 * When an item falls due under a rule: the basis date plus the period; for a rule kept until an
 * inspection, not before the customer's next inspection date when it has an inspector. Null when
 * the basis date is not known yet (no decision, no recorded end of employment): never due.
 */
export function redactionDueAt(
  settings: RetentionSettings,
  code: RetentionRuleCode,
  basisDate: Date | null,
): Date | null {
  if (basisDate === null) return null;
  const due = addMonths(basisDate, ruleMonths(settings, code));
  const rule = retentionRule(code);
  if (rule.untilInspection && settings.inspector !== null && settings.nextInspectionDate) {
    const inspection = new Date(`${settings.nextInspectionDate}T00:00:00Z`);
    if (inspection > due) return inspection;
  }
  return due;
}

/**
 * A criminal-record result with only what may be kept (the DBS code of practice): the date,
 * reference, level (the activity's kind, kept on the activity), certificate number and outcome.
 */
export function keptCriminalRecordResult(result: Record<string, unknown>): Record<string, unknown> {
  const application = asRecord(result.application);
  const disclosure = asRecord(result.disclosure);
  const kept: Record<string, unknown> = {};
  if (application) {
    kept.application = pick(application, ['reference', 'e_number', 'received_date', 'status']);
  }
  if (disclosure) {
    kept.disclosure = pick(disclosure, ['status', 'certificate_number', 'issue_date']);
  }
  return kept;
}

/** A driving result with only its outcome and dates (no licence, address or endorsements). */
export function keptDrivingResult(result: Record<string, unknown>): Record<string, unknown> {
  return pick(result, ['status', 'risk', 'enquiry_code', 'checked_date', 'last_check_date']);
}

function asRecord(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

function pick(source: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keys) if (source[k] !== undefined) out[k] = source[k];
  return out;
}

/**
 * What an erasure's redactions record as their rule (beside the retention rules' codes). An
 * erasure removes the subject's personal data that need not be kept (docs/data-protection.md):
 * besides its answers, documents' files and results' content, the free text staff wrote about the
 * person (activity notes and their history, flags' messages and resolutions, a case's decision
 * notes) and, of licensing records, what is not the register's (an application's tax check code
 * and messages, a licence's conditions). It keeps a record of each check, of each invitation and
 * reminder (when, by which channel: no address), each trust-to-ride booking and its attendance,
 * and of each licence and application: number, dates, status and the reason of a refusal,
 * suspension or revocation (the register of refusals and revocations).
 */
export const ERASURE_RULE = 'erasure';
/** What takes the place of free text an erasure removed (a note, a flag's message). */
export const ERASED_TEXT = 'Removed under the subject’s erasure request';
/**
 * What takes the place of the free text staff wrote about a person on a case purged under the
 * closed-cases rule (its activities' notes and their history, its decision notes, its flags).
 */
export const PURGED_TEXT = 'Removed under the retention policy';
/** The audited reason an erasure closes (cancels) the subject's open cases with. */
export const ERASURE_CASE_REASON =
  'Closed: the subject’s personal data was erased under their erasure request.';
/** The staff case page's notice in place of the case data forms, on a case an erasure closed. */
export const ERASURE_CASE_NOTICE =
  'The subject’s personal data was erased: their answers are no longer held, and no reminder is sent.';
/** Whether a case was closed by an erasure (its cancelled reason). */
export function closedByErasure(c: { state: string; cancelled_reason: string }): boolean {
  return c.state === 'cancelled' && c.cancelled_reason === ERASURE_CASE_REASON;
}
/** An erasure's redactions, by name on the panels. */
export const ERASURE_RULE_NAME = 'Erasure request';
/** The rule a redaction on a case was made under: a retention rule's code or an erasure. */
export const REDACTION_RULES = [...RETENTION_RULE_CODES, ERASURE_RULE] as const;
export type RedactionRule = (typeof REDACTION_RULES)[number];

/**
 * The panels' notice on redacted content: the spec's literal text for the retention rules; an
 * erasure is not the retention policy, so its redactions say what they were made under.
 */
export function redactionNotice(date: string | Date, rule?: RedactionRule): string {
  return rule === ERASURE_RULE
    ? `Redacted on ${formatDate(date)} under the subject's erasure request`
    : `Redacted on ${formatDate(date)} under the retention policy`;
}

/** How far ahead the "due soon" page looks. */
export const RETENTION_LOOKAHEAD_DAYS = 30;

const isoDay = z.iso.date();

/** PUT /api/customer-account/retention/: the customer's inspector and periods. */
export const retentionSettingsIn = z
  .object({
    inspector: z.enum(INSPECTORS).nullable(),
    next_inspection_date: isoDay.nullable(),
    rules: z
      .array(
        z.object({
          code: z.enum(RETENTION_RULE_CODES),
          months: z.number().int().min(RETENTION_MIN_MONTHS).max(RETENTION_MAX_MONTHS),
        }),
      )
      .max(RETENTION_RULE_CODES.length),
  })
  .superRefine((v, ctx) => {
    if (v.inspector !== null && v.next_inspection_date === null) {
      ctx.addIssue({
        code: 'custom',
        path: ['next_inspection_date'],
        message: 'Enter the date of the next inspection.',
      });
    }
  });
export type RetentionSettingsIn = z.infer<typeof retentionSettingsIn>;

export const retentionRuleOut = z.strictObject({
  code: z.enum(RETENTION_RULE_CODES),
  name: z.string(),
  checks: z.array(z.string()),
  data: z.enum(RETENTION_DATA_KINDS),
  basis: z.enum(RETENTION_BASES),
  months: z.number().int(),
  default_months: z.number().int(),
  until_inspection: z.boolean(),
  keeps: z.string(),
});
export const retentionSettingsOut = z.strictObject({
  inspector: z.enum(INSPECTORS).nullable(),
  next_inspection_date: z.string().nullable(),
  rules: z.array(retentionRuleOut),
});
export type RetentionSettingsOut = z.infer<typeof retentionSettingsOut>;

/** The settings as the API shows them: every rule with its period. */
export function presentRetentionSettings(settings: RetentionSettings): RetentionSettingsOut {
  return {
    inspector: settings.inspector,
    next_inspection_date: settings.nextInspectionDate,
    rules: RETENTION_RULES.map((r) => ({
      code: r.code,
      name: r.name,
      checks: [...r.checks],
      data: r.data,
      basis: r.basis,
      months: ruleMonths(settings, r.code),
      default_months: r.defaultMonths,
      until_inspection: r.untilInspection,
      keeps: r.keeps,
    })),
  };
}

/** POST /api/cases/:id/legal-hold/: a hold's reason. */
export const legalHoldIn = z.object({ reason: z.string().trim().min(1).max(500) });
/** PUT /api/cases/:id/retention/: when the subject's employment ended (right-to-work evidence). */
export const employmentEndIn = z.object({ employment_ended_on: isoDay.nullable() });

export const caseRetentionOut = z.strictObject({
  legal_hold: z.boolean(),
  hold_reason: z.string(),
  hold_set_at: z.string().nullable(),
  hold_set_by: z.string(),
  employment_ended_on: z.string().nullable(),
  redactions: z.array(
    z.strictObject({
      id: z.number().int(),
      target: z.enum(['document', 'activity', 'case']),
      target_id: z.number().int(),
      rule: z.enum(REDACTION_RULES),
      rule_name: z.string(),
      removed: z.array(z.string()),
      redacted_at: z.string(),
    }),
  ),
});
export type CaseRetentionOut = z.infer<typeof caseRetentionOut>;

export const dueRedactionOut = z.strictObject({
  case_id: z.number().int(),
  subject_id: z.number().int(),
  subject_name: z.string(),
  target: z.enum(['document', 'activity', 'case']),
  target_id: z.number().int(),
  what: z.string(),
  rule: z.enum(RETENTION_RULE_CODES),
  rule_name: z.string(),
  due_at: z.string(),
});
export type DueRedactionOut = z.infer<typeof dueRedactionOut>;
export const dueRedactionsOut = z.strictObject({ results: z.array(dueRedactionOut) });
