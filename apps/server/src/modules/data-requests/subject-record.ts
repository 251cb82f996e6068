import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Tx } from '../../db/connection.js';
import { caseActivities } from '../activities/activities.table.js';
import { activityTypes } from '../bootstrap/bootstrap.table.js';
import { caseDocuments, type StoredPage } from '../case-documents/case-documents.table.js';
import { cases } from '../cases/cases.table.js';
import { customers } from '../customers/customers.table.js';
import { subjectConsents } from '../portal/consents.table.js';
import { activityStateWords, caseStateWords, kindName } from '../portal/subject-words.js';
import { subjects } from '../subjects/subjects.table.js';
import { CASE_DATA_TABLES, caseDataRows } from './case-data-rows.js';

/** A document's page in the archive: where its file goes in the ZIP and its storage key. */
export interface ArchiveFile {
  path: string;
  key: string;
}

/** Everything Kestrel holds about one subject record (one customer's), as the subject sees it. */
export interface SubjectRecord {
  customer: { id: number; name: string };
  subject: {
    id: number;
    first_name: string;
    middlename: string;
    last_name: string;
    email: string;
    dob: string | null;
    phone_number: string;
    created_at: string;
  };
  cases: {
    id: number;
    state: string;
    state_display: string;
    created_at: string;
    completed_at: string | null;
    /** The checks and their state, as the person is allowed to see them (no result content). */
    checks: {
      id: number;
      check: string;
      state_display: string;
      completed_at: string | null;
    }[];
    case_data: Record<string, Record<string, unknown>[]>;
    consents: {
      id: number;
      kind: string;
      given_at: string;
      expires_at: string | null;
      withdrawn_at: string | null;
    }[];
    documents: {
      id: number;
      document_type: string;
      uploaded_at: string;
      files: string[];
    }[];
  }[];
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** A page's file name in the archive (the server's extension, never the uploader's name). */
function pagePath(customerId: number, caseId: number, docId: number, i: number, p: StoredPage) {
  const ext = /^[a-z0-9]{1,8}$/.test(p.extension) ? p.extension : 'bin';
  return `documents/customer-${customerId}/case-${caseId}/document-${docId}-page-${i + 1}.${ext}`;
}

/**
 * Subject `subjectId` of customer `customerId` with its cases, case data, consents, checks and
 * documents: every query names both ids, so the record holds nothing of another subject whatever
 * role the transaction runs as (the customer's, RLS on top; the system's for the subject's own).
 */
export async function collectSubjectRecord(
  tx: Tx,
  customerId: number,
  subjectId: number,
): Promise<{ record: SubjectRecord; files: ArchiveFile[] } | null> {
  const [row] = await tx
    .select({ s: subjects, customerName: customers.name })
    .from(subjects)
    .innerJoin(customers, eq(customers.id, subjects.customerId))
    .where(and(eq(subjects.customerId, customerId), eq(subjects.id, subjectId)));
  if (!row) return null;
  const { s } = row;
  const caseRows = await tx
    .select()
    .from(cases)
    .where(and(eq(cases.customerId, customerId), eq(cases.subjectId, subjectId)))
    .orderBy(asc(cases.createdAt), asc(cases.id));
  const caseIds = caseRows.map((c) => c.id);
  const someCases = caseIds.length ? caseIds : [-1];
  const activities = await tx
    .select({ a: caseActivities, code: activityTypes.code, name: activityTypes.name })
    .from(caseActivities)
    .innerJoin(activityTypes, eq(activityTypes.id, caseActivities.activityTypeId))
    .where(
      and(eq(caseActivities.customerId, customerId), inArray(caseActivities.caseId, someCases)),
    )
    .orderBy(asc(caseActivities.position), asc(caseActivities.id));
  const consents = await tx
    .select()
    .from(subjectConsents)
    .where(
      and(eq(subjectConsents.customerId, customerId), inArray(subjectConsents.caseId, someCases)),
    )
    .orderBy(asc(subjectConsents.givenAt), asc(subjectConsents.id));
  const docs = await tx
    .select()
    .from(caseDocuments)
    .where(and(eq(caseDocuments.customerId, customerId), inArray(caseDocuments.caseId, someCases)))
    .orderBy(asc(caseDocuments.createdAt), asc(caseDocuments.id));
  const data: Record<string, Record<number, Record<string, unknown>[]>> = {};
  for (const table of CASE_DATA_TABLES) {
    data[table] = await caseDataRows(tx, table, customerId, caseIds);
  }
  const files: ArchiveFile[] = [];
  const record: SubjectRecord = {
    customer: { id: customerId, name: row.customerName },
    subject: {
      id: s.id,
      first_name: s.firstName,
      middlename: s.middlename,
      last_name: s.lastName,
      email: s.email,
      dob: s.dob,
      phone_number: s.phoneNumber,
      created_at: s.createdAt.toISOString(),
    },
    cases: caseRows.map((c) => ({
      id: c.id,
      state: c.state,
      state_display: caseStateWords(c.state),
      created_at: c.createdAt.toISOString(),
      completed_at: iso(c.completedAt),
      checks: activities
        .filter((x) => x.a.caseId === c.id)
        .map((x) => ({
          id: x.a.id,
          check: kindName(x.code, x.name),
          state_display: activityStateWords(x.a.state),
          completed_at: iso(x.a.completedAt),
        })),
      case_data: Object.fromEntries(
        CASE_DATA_TABLES.flatMap((t) => {
          const rows = data[t]?.[c.id] ?? [];
          return rows.length > 0 ? [[t, rows] as const] : [];
        }),
      ),
      consents: consents
        .filter((x) => x.caseId === c.id)
        .map((x) => ({
          id: x.id,
          kind: x.kind,
          given_at: x.givenAt.toISOString(),
          expires_at: iso(x.expiresAt),
          withdrawn_at: iso(x.withdrawnAt),
        })),
      documents: docs
        .filter((d) => d.caseId === c.id)
        .map((d) => {
          const paths = d.pages.map((p, i) => {
            const path = pagePath(customerId, c.id, d.id, i, p);
            files.push({ path, key: p.key });
            return path;
          });
          return {
            id: d.id,
            document_type: d.documentType,
            uploaded_at: d.createdAt.toISOString(),
            files: paths,
          };
        }),
    })),
  };
  return { record, files };
}
