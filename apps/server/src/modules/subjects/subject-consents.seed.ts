import { consentKindOf } from '@kestrel/domain';
import { and, asc, eq, notInArray } from 'drizzle-orm';
import type { DemoSeedContext } from '../../platform/module.js';
import { caseActivities } from '../activities/activities.table.js';
import { activityTypes } from '../bootstrap/bootstrap.table.js';
import { cases } from '../cases/cases.table.js';
import { consentExpiry } from '../portal/consents.service.js';
import { subjectConsents } from '../portal/consents.table.js';

const DAY_MS = 86_400_000;

/**
 * Consents Acme Care Ltd's subjects gave in the portal (issue 30: the subject's consents tab and
 * /subjects/consents): one for a check of each of a few cases, the first a driving licence
 * mandate near its end when there is one, the last withdrawn. The demo subject's own cases
 * (subject@example.test) are left to the portal, where that person gives them.
 */
export async function seedSubjectConsentsDemo(ctx: DemoSeedContext): Promise<void> {
  const { tx } = ctx;
  const customerId = ctx.customers.acme;
  const own = Object.values(ctx.subjects)
    .filter((s) => s.customerId === customerId)
    .map((s) => s.id);
  const rows = await tx
    .select({ caseId: cases.id, activityId: caseActivities.id, code: activityTypes.code })
    .from(caseActivities)
    .innerJoin(
      cases,
      and(eq(cases.customerId, caseActivities.customerId), eq(cases.id, caseActivities.caseId)),
    )
    .innerJoin(activityTypes, eq(activityTypes.id, caseActivities.activityTypeId))
    .where(
      and(
        eq(caseActivities.customerId, customerId),
        own.length > 0 ? notInArray(cases.subjectId, own) : undefined,
      ),
    )
    .orderBy(asc(cases.id), asc(caseActivities.id));
  const seen = new Set<number>();
  const picked: {
    caseId: number;
    activityId: number;
    kind: NonNullable<ReturnType<typeof consentKindOf>>;
  }[] = [];
  // a driving licence mandate first (it expires), then one check of each other case
  const ordered = [...rows.filter((r) => consentKindOf(r.code) === 'driver-data'), ...rows];
  for (const r of ordered) {
    const kind = consentKindOf(r.code);
    if (!kind || seen.has(r.caseId)) continue;
    seen.add(r.caseId);
    picked.push({ caseId: r.caseId, activityId: r.activityId, kind });
    if (picked.length === 5) break;
  }
  const now = ctx.clock.now().getTime();
  for (const [i, p] of picked.entries()) {
    // the mandate given almost three years ago (expiring soon); the others weeks ago
    const givenAt = new Date(
      p.kind === 'driver-data' && i === 0
        ? now - (3 * 365 - 40) * DAY_MS
        : now - (30 + i * 7) * DAY_MS,
    );
    await tx.insert(subjectConsents).values({
      customerId,
      caseId: p.caseId,
      caseActivityId: p.activityId,
      kind: p.kind,
      givenAt,
      expiresAt: consentExpiry(p.kind, givenAt),
      withdrawnAt: i === picked.length - 1 && i > 0 ? new Date(now - 3 * DAY_MS) : null,
    });
  }
}
