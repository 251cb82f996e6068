import { PORTAL_SUBMITTED_SECTION } from '@kestrel/domain';
import { and, eq } from 'drizzle-orm';
import { createCase, createProcess, createSubjectUser } from '../../db/factories.js';
import { DEMO_PASSWORD } from '../../db/seed.js';
import { type Actor, systemActor } from '../../platform/context.js';
import { enqueue } from '../../platform/jobs.js';
import type { DemoSeedContext } from '../../platform/module.js';
import type { ServiceContext } from '../../platform/service-context.js';
import { auditLogin } from '../accounts/accounts.service.js';
import { caseActivities } from '../activities/activities.table.js';
import { activityTypes } from '../bootstrap/bootstrap.table.js';
import { cases } from '../cases/cases.table.js';
import { createCaseDocument } from './case-documents.factories.js';
import { caseDocuments } from './case-documents.table.js';
import { rejectDocument } from './reject-document.js';

const DAY = 86_400_000;

/** The demo's person whose passport operations rejected (Acme): their login and name. */
export const REJECTED_DOCUMENT_SUBJECT = 'riley.evans@example.test';
/** The demo case's process. */
export const REJECTED_DOCUMENT_PROCESS = 'Identity documents';
/** Why operations rejected the passport (the person reads it in the portal). */
export const REJECTED_DOCUMENT_REASON =
  'The photo is blurred: the passport number cannot be read. Please upload a clearer photo.';

/**
 * A rejected document on a demo case (issue 27, point 4), made as the product makes it: Riley
 * Evans, at Acme, uploaded a passport and a utility bill to the case's document collection and
 * submitted (the collection waits for operations' review); operations (Olivia Ops) rejected the
 * passport with a reason through the service the reject endpoint uses, audited: the passport
 * leaves the panels (the customer's reads '1 document was rejected…'), the collection goes back
 * to the person and the portal reopens, where they read the reason and replace the passport.
 * The documents' files are really stored (thumbnails, viewer), in the server's store.
 */
export async function seedRejectedDocumentDemo(ctx: DemoSeedContext): Promise<void> {
  const { tx, clock } = ctx;
  const customerId = ctx.customers.acme;
  const ops = ctx.users['ops@kestrel.test'];
  if (!ops) return;
  const now = clock.now().getTime();
  const process = await createProcess(tx, {
    customerId,
    name: REJECTED_DOCUMENT_PROCESS,
    description: 'Proof of identity, reviewed by operations.',
    requirements: [{ code: 'document-collection', config: { collectors: ['Proof of identity'] } }],
  });
  const person = await createSubjectUser(tx, {
    customerId,
    email: REJECTED_DOCUMENT_SUBJECT,
    firstName: 'Riley',
    lastName: 'Evans',
    dob: '1988-07-21',
    password: DEMO_PASSWORD,
    createdAt: new Date(now - 6 * DAY),
  });
  // they signed in to their portal (the customer sees they have an account)
  await auditLogin(
    systemActor,
    { type: 'SubjectUser', id: person.userId, customerId, name: REJECTED_DOCUMENT_SUBJECT },
    'logged_in',
  )(tx);
  // submitted: the documents wait for operations' review
  const c = await createCase(tx, {
    customerId,
    processId: process.id,
    subjectId: person.id,
    activityStates: ['ca-awaiting-ops'],
    createdAt: new Date(now - 5 * DAY),
  });
  const [collection] = await tx
    .select({ id: caseActivities.id })
    .from(caseActivities)
    .innerJoin(activityTypes, eq(activityTypes.id, caseActivities.activityTypeId))
    .where(and(eq(caseActivities.caseId, c.id), eq(activityTypes.code, 'document-collection')));
  if (!collection) throw new Error('the rejected-document demo case has no document collection');
  const uploaded = new Date(now - 3 * DAY);
  await tx
    .update(cases)
    .set({ portalLastCompletedSection: PORTAL_SUBMITTED_SECTION, updatedAt: uploaded })
    .where(eq(cases.id, c.id));
  const documents = [
    { documentType: 'passport', group: '1' },
    { documentType: 'utility-bill', group: '2b' },
  ];
  const ids: number[] = [];
  for (const d of documents) {
    const doc = await createCaseDocument(tx, ctx.storage, {
      customerId,
      caseId: c.id,
      caseActivityId: collection.id,
      collector: 'identity',
      ...d,
    });
    await tx
      .update(caseDocuments)
      .set({ createdAt: uploaded, updatedAt: uploaded })
      .where(eq(caseDocuments.id, doc.id));
    ids.push(doc.id);
  }
  const actor: Actor = {
    type: 'ProductUser',
    id: ops.id,
    name: 'Olivia Ops',
    customerId,
    isOps: true,
    permissions: new Set(['cases.change_caseactivity']),
    ip: null,
    requestId: null,
  };
  const service: ServiceContext = {
    tx,
    actor,
    clock,
    enqueue: async (job) => void (await enqueue(tx, job)),
    afterCommit: () => undefined,
  };
  const [passport] = ids;
  if (passport === undefined) throw new Error('the demo passport was not stored');
  await rejectDocument(service, passport, { reason: REJECTED_DOCUMENT_REASON });
}
