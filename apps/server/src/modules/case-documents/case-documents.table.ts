import type { PreviewState } from '@kestrel/domain';
import { sql } from 'drizzle-orm';
import {
  boolean,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  varchar,
} from 'drizzle-orm/pg-core';
import { createdAt, customerIdColumn, idColumn, tstz } from '../../db/columns.js';
import { caseActivities } from '../activities/activities.table.js';
import { cases } from '../cases/cases.table.js';
import { customers } from '../customers/customers.table.js';

/** The audit's content type of a document. */
export const DOCUMENT_CT = 'cases.casedocument';

/** One stored page (file) of a document. Keys are the server's; the name is only shown. */
export interface StoredPage {
  /** Storage key of the file (server-made, never the uploader's name). */
  key: string;
  /** Storage key of its thumbnail (a JPEG). */
  thumbnailKey: string;
  contentType: string;
  extension: string;
  size: number;
  /** The uploader's file name, for display and the download's Content-Disposition only. */
  originalName: string;
  /** 'heic' when a HEIC photo was converted to JPEG on upload. */
  convertedFrom: string | null;
  /**
   * Its thumbnail: made by the document-thumbnails job after the upload ('pending' until then),
   * 'ready' at `thumbnailKey`, or 'none'. Absent on pages stored before previews were made in the
   * background: those have their thumbnail.
   */
  preview?: PreviewState;
}

/**
 * A document of a case (spec point 3): its type, collector, identity route and pages. The
 * subject role reaches only its own cases' rows through `case_id` (db/security.ts).
 */
export const caseDocuments = pgTable(
  'case_documents',
  {
    customerId: customerIdColumn().references(() => customers.id, { onDelete: 'cascade' }),
    id: idColumn(),
    caseId: integer('case_id').notNull(),
    caseActivityId: integer('case_activity_id'),
    collector: varchar('collector', { length: 100 }).notNull().default(''),
    /** A code of CASE_DOCUMENT_TYPES (@kestrel/domain). */
    documentType: varchar('document_type', { length: 60 }).notNull(),
    group: varchar('group', { length: 10 }).notNull().default(''),
    routeIndex: integer('route_index'),
    /** manual (uploaded) or idsp (from the identity service provider). */
    source: varchar('source', { length: 10 }).notNull().default('manual'),
    rejected: boolean('rejected').notNull().default(false),
    /** Why operations or customer staff rejected it (shown to the subject, who replaces it). */
    rejectionReason: varchar('rejection_reason', { length: 400 }).notNull().default(''),
    rejectedAt: tstz('rejected_at'),
    /** Who rejected it, by name (as the audit entry's actor). */
    rejectedBy: varchar('rejected_by', { length: 200 }).notNull().default(''),
    /** The ids of the type's eligibility questions confirmed at upload (point 5). */
    confirmations: jsonb('confirmations').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    pages: jsonb('pages').$type<StoredPage[]>().notNull(),
    /** ProductUser or SubjectUser, and its id. */
    uploadedByType: varchar('uploaded_by_type', { length: 20 }).notNull(),
    uploadedById: integer('uploaded_by_id'),
    createdAt: createdAt(),
    updatedAt: tstz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.id] }),
    index('case_documents_id_idx').on(t.id),
    foreignKey({
      columns: [t.customerId, t.caseId],
      foreignColumns: [cases.customerId, cases.id],
    }).onDelete('cascade'),
    foreignKey({
      columns: [t.customerId, t.caseActivityId],
      foreignColumns: [caseActivities.customerId, caseActivities.id],
    }).onDelete('cascade'),
    index('case_documents_case_idx').on(t.customerId, t.caseId, t.createdAt, t.id),
    index('case_documents_activity_idx')
      .on(t.customerId, t.caseActivityId)
      .where(sql`${t.caseActivityId} is not null`),
  ],
);
