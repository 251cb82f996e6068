import { z } from 'zod';
import type { EligibleDocumentType } from '../document-eligibility.js';
import { IDENTITY_DOCUMENT_TYPES } from '../identity-documents.js';
import { MESSAGES, maxCharacters } from '../messages.js';
import { RTW_DOCUMENT_TYPES } from '../rtw-documents.js';
import { RTW_SUPPORTING_DOCUMENT_TYPES } from '../rtw-supporting-documents.js';
import { requiredText } from '../text-rules.js';
import { INT4_MAX, pageOut, timestampOut } from './common.js';

/** Case documents (spec points 3 and 7): uploaded pages of one identity or right-to-work document. */

/** The file types a page may be, decided by the file's content (never its name or header). */
export const DOCUMENT_FILE_TYPES = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'application/pdf': 'pdf',
} as const;
export type DocumentContentType = keyof typeof DOCUMENT_FILE_TYPES;

/** Texts of the upload's refusals (literal in the web's messages and the server's 400/413). */
export const DOCUMENT_MESSAGES = {
  unsupportedType: 'Upload a photo or scan as a JPEG, PNG, HEIC or PDF file.',
  unreadableImage: 'This image could not be read. Take the photo again or choose another file.',
  tooLarge: (maxBytes: number) =>
    `The file is too large: upload a file of at most ${Math.floor(maxBytes / (1024 * 1024))} MB.`,
  noFile: 'Choose a file to upload.',
  tooManyPages: (max: number) => `A document may have at most ${max} pages.`,
  unknownDocumentType: 'Select a valid document type.',
  activityNotInCase: 'This check is not part of the case.',
  submitted: 'This case has been submitted: its documents can no longer be changed.',
  closed: 'This case is closed: its documents can no longer be changed.',
  noSuchPage: 'This document has no such page.',
  noPreview: 'This page has no preview.',
  unknownQuestion: 'Select a valid question of this document type.',
  alreadyRejected: 'This document has already been rejected.',
  noOpenCollection:
    'This case has no open document collection: the subject cannot be asked for a replacement.',
} as const;

/** The longest reason a rejection may give. */
export const REJECTION_REASON_MAX = 400;

/**
 * POST .../case-documents/{id}/reject/ (operations, or customer staff who may change checks): why
 * the document is not accepted. The subject reads it in the portal and replaces the document.
 */
export const caseDocumentReject = z.object({
  reason: requiredText().max(REJECTION_REASON_MAX, maxCharacters(REJECTION_REASON_MAX)),
});
export type CaseDocumentReject = z.infer<typeof caseDocumentReject>;

/** Every document type a collector may record: identity check, right to work, supporting. */
export const CASE_DOCUMENT_TYPES: readonly EligibleDocumentType[] = [
  ...IDENTITY_DOCUMENT_TYPES,
  ...RTW_DOCUMENT_TYPES.filter((t) => !IDENTITY_DOCUMENT_TYPES.some((i) => i.code === t.code)),
  ...RTW_SUPPORTING_DOCUMENT_TYPES.filter(
    (t) =>
      !IDENTITY_DOCUMENT_TYPES.some((i) => i.code === t.code) &&
      !RTW_DOCUMENT_TYPES.some((r) => r.code === t.code),
  ),
];

/** The document type of a code (first list that has it), or undefined. */
export function caseDocumentType(code: string): EligibleDocumentType | undefined {
  return CASE_DOCUMENT_TYPES.find((t) => t.code === code);
}

/**
 * The eligibility answers of an upload (a form value): the ids of the document type's yes/no
 * questions the person confirmed, comma separated (`"original,in-date"`), as a list without
 * repeats.
 */
export const confirmationsField = z.preprocess(
  (v) => (typeof v === 'string' ? v : undefined),
  z
    .string()
    .max(2000)
    .transform((v) => [
      ...new Set(
        v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      ),
    ])
    .optional(),
);

/**
 * What is wrong with a document type's confirmations: `Please confirm` when a question of the
 * type is not confirmed, `unknownQuestion` for an id the type does not ask; null when every
 * question is confirmed ('Document eligibility', spec point 5).
 */
export function confirmationsProblem(typeCode: string, ids: readonly string[]): string | null {
  const type = caseDocumentType(typeCode);
  if (!type) return DOCUMENT_MESSAGES.unknownDocumentType;
  const asked = type.questions.map((q) => q.id);
  if (ids.some((id) => !asked.includes(id))) return DOCUMENT_MESSAGES.unknownQuestion;
  if (asked.some((id) => !ids.includes(id))) return MESSAGES.pleaseConfirm;
  return null;
}

/** An id sent as a form or query value (`"12"`). */
const formId = z
  .string({ error: MESSAGES.required })
  .trim()
  .regex(/^\d{1,10}$/, 'A valid integer is required.')
  .transform(Number)
  .pipe(
    z
      .number()
      .min(1, 'Invalid pk - object does not exist.')
      .max(INT4_MAX, 'Invalid pk - object does not exist.'),
  );

const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

/**
 * The form fields of an upload (multipart/form-data, beside one `file` part per page):
 * `case`, optional `case_activity`, `document_type` (a code of CASE_DOCUMENT_TYPES), optional
 * `collector` and `route_index` (the identity route the document counts for).
 */
export const caseDocumentCreate = z.object({
  case: formId,
  case_activity: z.preprocess(blankToUndefined, formId.optional()),
  document_type: z
    .string({ error: MESSAGES.required })
    .trim()
    .refine((c) => caseDocumentType(c) !== undefined, DOCUMENT_MESSAGES.unknownDocumentType),
  collector: z.preprocess(
    blankToUndefined,
    z.string().trim().max(100, 'Ensure this field has no more than 100 characters.').optional(),
  ),
  route_index: z.preprocess(
    blankToUndefined,
    z
      .string()
      .trim()
      .regex(/^\d{1,2}$/, 'A valid integer is required.')
      .transform(Number)
      .optional(),
  ),
  /** The confirmed eligibility questions; when sent, every question of the type is needed. */
  confirmations: confirmationsField,
});
export type CaseDocumentCreate = z.infer<typeof caseDocumentCreate>;

/**
 * The form fields of a replacement (PUT, multipart): the new pages replace every old one; the
 * fields, when sent, replace theirs.
 */
export const caseDocumentReplace = caseDocumentCreate
  .omit({ case: true, case_activity: true })
  .partial();
export type CaseDocumentReplace = z.infer<typeof caseDocumentReplace>;

/** GET .../case-documents/?case=1[&case_activity=2]: the case is required. */
export const caseDocumentListQuery = z.object({
  case: formId,
  case_activity: z.preprocess(blankToUndefined, formId.optional()),
  page: z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^[1-9]\d{0,5}$/, 'Invalid page.')
      .transform(Number)
      .optional(),
  ),
  page_size: z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^[1-9]\d{0,5}$/, 'A valid integer is required.')
      .transform(Number)
      .optional(),
  ),
});

/** GET .../download/?inline=true[&page=2]: inline shows it in the browser, else a download. */
export const caseDocumentDownloadQuery = z.object({
  inline: z.enum(['true', 'false', '1', '0']).optional(),
  page: z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^\d{1,2}$/, 'A valid integer is required.')
      .transform(Number)
      .optional(),
  ),
});

/**
 * A page's preview (its thumbnail), made in the background after the upload: `pending` until
 * then, `ready` (thumbnail_url serves it), or `none` (the file could not be previewed within the
 * limits: too large, too many pixels, a decompression bomb, unreadable; the file is kept).
 */
export const PREVIEW_STATES = ['pending', 'ready', 'none'] as const;
export type PreviewState = (typeof PREVIEW_STATES)[number];

/** One page (file) of a document. */
export const caseDocumentPageOut = z.strictObject({
  page: z.number(),
  original_name: z.string(),
  content_type: z.string(),
  extension: z.string(),
  size: z.number(),
  /** Set when the uploaded file was converted (a HEIC photo stored as JPEG). */
  converted_from: z.string().nullable(),
  content_url: z.string(),
  thumbnail_url: z.string(),
  preview: z.enum(PREVIEW_STATES),
});

/**
 * A document as the API returns it (spec point 3: id, collector, document_type (name), group,
 * route_index, source, extension, content_url, rejected), with its pages.
 */
export const caseDocumentOut = z.strictObject({
  id: z.number(),
  case: z.number(),
  case_activity: z.number().nullable(),
  collector: z.string(),
  document_type: z.string(),
  document_type_code: z.string(),
  group: z.string(),
  route_index: z.number().nullable(),
  source: z.string(),
  extension: z.string(),
  content_url: z.string(),
  thumbnail_url: z.string(),
  rejected: z.boolean(),
  /** Why it was rejected ('' unless rejected): shown to the subject, who replaces it. */
  rejection_reason: z.string(),
  rejected_at: timestampOut.nullable(),
  /** Who rejected it ('' for the subject's view, and unless rejected). */
  rejected_by: z.string(),
  /** The ids of the type's eligibility questions confirmed at upload (empty when none were). */
  confirmations: z.array(z.string()),
  /** Every eligibility question of the document's type was confirmed. */
  confirmed: z.boolean(),
  pages: z.array(caseDocumentPageOut),
  uploaded_by: z.string(),
  created_at: timestampOut,
  updated_at: timestampOut,
});
export type CaseDocumentOut = z.infer<typeof caseDocumentOut>;

export const caseDocumentPageListOut = pageOut(caseDocumentOut);
