import { z } from 'zod';
import { PORTAL_SECTIONS } from '../portal-sections.js';
import { caseBasicDetailsOut } from './case-basic-details.js';
import { caseDrivingLicenceOut } from './case-driving-licences.js';
import { casePassportOut } from './case-passports.js';
import { idSchema, nullableTimestampOut, pageOut, timestampOut } from './common.js';
import { activityConfigOut } from './processes.js';

// The subject's case portal (spec points 2, 3 and 4): /api/s/case-portal/{case id}/.
//   GET                 the portal payload (point 3), 404 for a case that is not the subject's
//   PATCH               { portal_last_completed_section } : progress as the person goes
//   POST .../submit/    Review & Submit: moves the activities on (point 4); read-only after
// The subject's consents: /api/s/consents/ (list, create), /api/s/consents/{id}/withdraw/ (POST),
// /api/s/dvla-reconsent/ (POST: renew the driving licence consent when it is due).
// The subject's cases across every customer that holds them: /api/s/cases/ and /api/s/cases/{id}/.

export const portalSectionSchema = z.enum(PORTAL_SECTIONS);

/**
 * The last completed section: a section name, or `name/step` while a section with steps is part
 * done (it then counts one step earlier, see `portalProgress`).
 */
export const portalLastCompletedSection = z
  .string()
  .trim()
  .max(60)
  .refine((v) => (PORTAL_SECTIONS as readonly string[]).includes(v.split('/')[0] ?? ''), {
    message: 'Unknown portal section',
  });

/** PATCH /api/s/case-portal/{id}/. */
export const portalProgressPatch = z.object({
  portal_last_completed_section: portalLastCompletedSection,
});

export const portalProgressOut = z.strictObject({
  completed: z.number(),
  total: z.number(),
  percent: z.number(),
  next: portalSectionSchema,
});
export type PortalProgressOut = z.infer<typeof portalProgressOut>;

/** An activity as the portal shows it (point 3: activity_type code and code_display). */
export const portalActivityOut = z.strictObject({
  id: z.number(),
  activity_type: z.strictObject({ code: z.string(), code_display: z.string() }),
  state: z.string(),
  state_display: z.string(),
  config: activityConfigOut,
});
export type PortalActivityOut = z.infer<typeof portalActivityOut>;

/** Online identity check data (point 3); `verified` is `isOnlineIdentityVerified` of the rest. */
export const onlineIdvOut = z.strictObject({
  session: z.string().nullable(),
  ibv_verified: z.boolean(),
  ibv_session: z.string().nullable(),
  manual_idv_approved: z.boolean(),
  id_profile: z.record(z.string(), z.unknown()).nullable(),
  verified: z.boolean(),
});
export type OnlineIdvOut = z.infer<typeof onlineIdvOut>;

export const portalSubscriptionOut = z.strictObject({
  id: z.number(),
  cycle: z.strictObject({ id: z.number(), requirements: z.array(z.string()) }),
});

export const casePortalOut = z.strictObject({
  portal: z.strictObject({
    /** The case id. */
    id: z.number(),
    customer: z.strictObject({ id: z.number(), name: z.string() }),
    state: z.string(),
    case_activities: z.array(portalActivityOut),
    required_consents: z.array(z.string()),
    portal_last_completed_section: z.string().nullable(),
    /** The sections this case needs, in portal order (`portalSections`). */
    sections: z.array(portalSectionSchema),
    progress: portalProgressOut,
    /** True once submitted: the portal is read-only. */
    submitted: z.boolean(),
  }),
  basic_details: caseBasicDetailsOut.nullable(),
  documentation: z.strictObject({
    passport: casePassportOut.nullable(),
    driving_licence: caseDrivingLicenceOut.nullable(),
  }),
  online_idv: onlineIdvOut,
  subscriptions: z.array(portalSubscriptionOut),
});
export type CasePortalOut = z.infer<typeof casePortalOut>;

// Consents -------------------------------------------------------------------------------------

/**
 * What a consent is for: the declaration and consent of a criminal-record application, status
 * checks on the DBS update service, the driving licence (DVLA) mandate (lasts 3 years).
 */
export const CONSENT_KINDS = ['dbs-application', 'dbs-update', 'driver-data'] as const;
export type ConsentKind = (typeof CONSENT_KINDS)[number];
export const CONSENT_KIND_LABELS: Record<ConsentKind, string> = {
  'dbs-application': 'Criminal record check declaration and consent',
  'dbs-update': 'DBS update service status checks',
  'driver-data': 'Driving licence and driver data checks (DVLA mandate)',
};

/** POST /api/s/consents/. */
export const subjectConsentCreate = z.object({
  case: idSchema,
  case_activity: idSchema,
  kind: z.enum(CONSENT_KINDS),
});

export const subjectConsentOut = z.strictObject({
  id: z.number(),
  case: z.number(),
  case_activity: z.number(),
  activity_type_name: z.string(),
  customer_name: z.string(),
  kind: z.enum(CONSENT_KINDS),
  kind_display: z.string(),
  given_at: timestampOut,
  expires_at: nullableTimestampOut,
  withdrawn_at: nullableTimestampOut,
  status: z.enum(['active', 'expiring', 'expired', 'withdrawn']),
});
export type SubjectConsentOut = z.infer<typeof subjectConsentOut>;
export const subjectConsentListOut = pageOut(subjectConsentOut);

/** A driving licence (DVLA) mandate lasts this many years (point 9). */
export const DVLA_CONSENT_YEARS = 3;
/** A consent is `expiring` (and a DVLA one may be renewed) this many days before it expires. */
export const CONSENT_EXPIRING_DAYS = 90;

/** POST /api/s/dvla-reconsent/: renew this driving licence consent (when it is due). */
export const dvlaReconsentCreate = z.object({ consent: idSchema });

// The subject's cases ---------------------------------------------------------------------------

export const subjectCaseOut = z.strictObject({
  id: z.number(),
  customer: z.strictObject({ id: z.number(), name: z.string() }),
  state: z.string(),
  state_display: z.string(),
  created_at: timestampOut,
  submitted: z.boolean(),
  progress: portalProgressOut,
  /** What the person still has to do, in plain words (the labels of the unfinished sections). */
  needs: z.array(z.string()),
  /**
   * The one next step, as a button: its label and the portal section it opens; or, once the
   * case is submitted and a check awaits a top-up, its payment (`payment_intent`: the payment
   * portal's id).
   */
  next_step: z
    .strictObject({
      label: z.string(),
      section: portalSectionSchema,
      payment_intent: z.string().nullable(),
    })
    .nullable(),
  case_activities: z.array(portalActivityOut.omit({ config: true })),
});
export type SubjectCaseOut = z.infer<typeof subjectCaseOut>;
export const subjectCaseListOut = pageOut(subjectCaseOut);
