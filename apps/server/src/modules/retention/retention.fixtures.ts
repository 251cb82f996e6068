import type { DbsResultData } from '@kestrel/domain';
import { and, eq } from 'drizzle-orm';
import type { Tx } from '../../db/connection.js';
import { createCase, createProcess, createSubjectUser } from '../../db/factories.js';
import type { DocumentStorage } from '../../providers/storage/provider.js';
import { caseActivities } from '../activities/activities.table.js';
import { activityTypes } from '../bootstrap/bootstrap.table.js';
import { createCaseDocument } from '../case-documents/case-documents.factories.js';
import { caseDocuments } from '../case-documents/case-documents.table.js';

const DAY = 86_400_000;

/** The process of the retention demo and tests: identity documents, an enhanced DBS, RTW. */
export const RETENTION_REQUIREMENTS = ['document-collection', 'dbs-enhanced', 'rtw'];

/** A full enhanced DBS result (applicant, application, disclosure, tracking, barred lists). */
export function dbsResult(decided: Date, n: number): DbsResultData {
  const day = (d: Date) => d.toISOString().slice(0, 10);
  return {
    applicant: {
      forename: 'Demo',
      surname: 'Applicant',
      dob: '1985-03-02',
      nin: 'QQ123456C',
      current_address: '1 High Street, Leeds, LS1 1AA',
    },
    application: {
      status: 'Complete',
      reference: `E${String(40_000_000 + n)}`,
      received_date: day(new Date(decided.getTime() - 12 * DAY)),
      verified_by: 'Olivia Ops',
    },
    disclosure: {
      status: 'clear',
      certificate_number: String(1_000_000_000_00 + n).padStart(12, '0'),
      issue_date: day(new Date(decided.getTime() - 2 * DAY)),
    },
    tracking: [{ stage: 'Police National Computer searched', status: 'complete' }],
    barred_lists: [{ list: 'adult', searched: true, result: 'no-match' }],
  };
}

export interface RetentionCase {
  caseId: number;
  subjectId: number;
  dbsActivityId: number;
  identityDocumentId: number;
  rtwDocumentId: number;
}

/**
 * A completed case of `customerId` under the retention process: a decision on `completedAt`, an
 * enhanced DBS result, a passport for the identity check and one for the right-to-work check,
 * both really stored (page and thumbnail) in `storage`.
 */
export async function createRetentionCase(
  tx: Tx,
  storage: DocumentStorage,
  input: {
    customerId: number;
    processId?: number;
    firstName: string;
    lastName: string;
    completedAt: Date;
    state?: 'complete' | 'cancelled';
    archivedAt?: Date | null;
  },
): Promise<RetentionCase> {
  const processId =
    input.processId ??
    (
      await createProcess(tx, {
        customerId: input.customerId,
        requirements: RETENTION_REQUIREMENTS,
      })
    ).id;
  const subject = await createSubjectUser(tx, {
    customerId: input.customerId,
    firstName: input.firstName,
    lastName: input.lastName,
    password: null,
    createdAt: new Date(input.completedAt.getTime() - 30 * DAY),
  });
  const cancelled = input.state === 'cancelled';
  const c = await createCase(tx, {
    customerId: input.customerId,
    processId,
    subjectId: subject.id,
    activityStates: [cancelled ? 'ca-cancelled' : 'ca-complete'],
    state: cancelled ? 'cancelled' : 'complete',
    decision: cancelled ? null : 'satisfactory',
    createdAt: new Date(input.completedAt.getTime() - 20 * DAY),
    completedAt: input.completedAt,
    archivedAt: input.archivedAt ?? null,
  });
  const acts = await tx
    .select({ id: caseActivities.id, code: activityTypes.code })
    .from(caseActivities)
    .innerJoin(activityTypes, eq(activityTypes.id, caseActivities.activityTypeId))
    .where(and(eq(caseActivities.customerId, input.customerId), eq(caseActivities.caseId, c.id)));
  const idOf = (code: string) => {
    const a = acts.find((x) => x.code === code);
    if (!a) throw new Error(`the retention case has no ${code} activity`);
    return a.id;
  };
  const dbsActivityId = idOf('dbs-enhanced');
  await tx
    .update(caseActivities)
    .set({ resultData: dbsResult(input.completedAt, c.id), completedAt: input.completedAt })
    .where(
      and(eq(caseActivities.customerId, input.customerId), eq(caseActivities.id, dbsActivityId)),
    );
  const doc = async (activityId: number, collector: string) => {
    const d = await createCaseDocument(tx, storage, {
      customerId: input.customerId,
      caseId: c.id,
      caseActivityId: activityId,
      collector,
      documentType: 'passport',
      group: '1',
    });
    const uploaded = new Date(input.completedAt.getTime() - 10 * DAY);
    await tx
      .update(caseDocuments)
      .set({ createdAt: uploaded, updatedAt: uploaded })
      .where(and(eq(caseDocuments.customerId, input.customerId), eq(caseDocuments.id, d.id)));
    return d.id;
  };
  return {
    caseId: c.id,
    subjectId: subject.id,
    dbsActivityId,
    identityDocumentId: await doc(idOf('document-collection'), 'identity'),
    rtwDocumentId: await doc(idOf('rtw'), 'rtw'),
  };
}
