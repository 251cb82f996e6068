import { addMonths } from 'date-fns/addMonths';
import { createProcess } from '../../db/factories.js';
import { systemActor } from '../../platform/context.js';
import type { DemoSeedContext } from '../../platform/module.js';
import type { ServiceContext } from '../../platform/service-context.js';
import { redactActivityResult, redactDocument } from './redact.js';
import { createRetentionCase, RETENTION_REQUIREMENTS } from './retention.fixtures.js';
import { caseRetention, retentionSettings } from './retention.table.js';

const DAY = 86_400_000;

/** The demo's legal hold reason (Acme Care Ltd). */
export const DEMO_HOLD_REASON = 'Employment tribunal claim: keep everything until the hearing';

/**
 * Acme Care Ltd's retention (issue 34): inspected by the CQC (its next inspection in 10 days),
 * driving results kept 6 months; a former employee's case whose criminal-record content and
 * identity images were redacted years ago and whose right-to-work evidence falls due in about
 * two weeks; a case whose DBS result and identity images fall due in about two weeks; and a case
 * under a legal hold, overdue but kept. The three are archived (decided, filed away), so the
 * dashboard's counts of open work are the core seed's; a purge of them falls due a year on.
 */
export async function seedRetentionDemo(ctx: DemoSeedContext): Promise<void> {
  const { tx, clock, storage } = ctx;
  const customerId = ctx.customers.acme;
  const now = clock.now();
  const day = (d: Date) => d.toISOString().slice(0, 10);
  await tx.insert(retentionSettings).values({
    customerId,
    inspector: 'CQC',
    nextInspectionDate: day(new Date(now.getTime() + 10 * DAY)),
    months: { 'driving-results': 6 },
  });
  const process = await createProcess(tx, {
    customerId,
    name: 'Care worker onboarding (retention)',
    description: 'Identity documents, an enhanced DBS check and the right to work.',
    requirements: RETENTION_REQUIREMENTS,
  });
  // a former employee: checked five years ago, left 23½ months ago
  const former = await createRetentionCase(tx, storage, {
    customerId,
    processId: process.id,
    firstName: 'Megan',
    lastName: 'Ward',
    completedAt: new Date(now.getTime() - 5 * 365 * DAY),
    archivedAt: new Date(now.getTime() - 60 * DAY),
  });
  await tx.insert(caseRetention).values({
    customerId,
    caseId: former.caseId,
    employmentEndedOn: day(new Date(addMonths(now, -24).getTime() + 14 * DAY)),
  });
  const decided = new Date(now.getTime() - 5 * 365 * DAY);
  const at = (d: Date): ServiceContext => ({
    tx,
    actor: { ...systemActor, customerId },
    clock: { now: () => d },
    enqueue: async () => undefined,
    afterCommit: () => undefined,
  });
  await redactActivityResult(
    at(addMonths(decided, 6)),
    former.dbsActivityId,
    'criminal-record-content',
  );
  await redactDocument(
    at(addMonths(decided, 6)),
    storage,
    former.identityDocumentId,
    'identity-images',
  );

  // decided five and a half months ago: its DBS content and identity images fall due soon
  await createRetentionCase(tx, storage, {
    customerId,
    processId: process.id,
    firstName: 'Ravi',
    lastName: 'Patel',
    completedAt: new Date(addMonths(now, -6).getTime() + 14 * DAY),
    archivedAt: new Date(addMonths(now, -6).getTime() + 21 * DAY),
  });

  // under a legal hold: eight months since the decision, nothing redacted
  const held = await createRetentionCase(tx, storage, {
    customerId,
    processId: process.id,
    firstName: 'Sofia',
    lastName: 'Marsh',
    completedAt: addMonths(now, -8),
    archivedAt: new Date(addMonths(now, -8).getTime() + 7 * DAY),
  });
  await tx.insert(caseRetention).values({
    customerId,
    caseId: held.caseId,
    legalHold: true,
    holdReason: DEMO_HOLD_REASON,
    holdSetAt: new Date(now.getTime() - 60 * DAY),
    holdSetBy: 'Alice Admin',
  });
}
