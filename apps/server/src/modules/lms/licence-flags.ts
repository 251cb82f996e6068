import { and, eq, inArray } from 'drizzle-orm';
import { recordAudit } from '../../platform/audit.js';
import type { ServiceContext } from '../../platform/service-context.js';
import { cases } from '../cases/cases.table.js';
import { flags } from '../flags/flags.table.js';
import { licences } from './lms.table.js';

/** The flag message's maximum (FLAG_MESSAGE_MAX of the flags' contract). */
const MESSAGE_MAX = 400;

/**
 * A licensed driver's DBS update service check reports new information (issue 32): the licensing
 * team is told through an attention flag on the holder's record and case (the navigation's
 * active count), naming the licences to review. Called where the update service's answer is
 * stored (checks/update-service), in its transaction; nothing when the case's subject holds no
 * active or suspended licence at the council. Returns the flag's id, or null.
 */
export async function flagLicencesOnNewInformation(
  ctx: ServiceContext,
  c: { customerId: number; caseId: number },
  certificate: string,
  checked: string,
): Promise<number | null> {
  const [row] = await ctx.tx
    .select({ subjectId: cases.subjectId })
    .from(cases)
    .where(and(eq(cases.customerId, c.customerId), eq(cases.id, c.caseId)));
  if (!row) return null;
  const held = await ctx.tx
    .select({ number: licences.number })
    .from(licences)
    .where(
      and(
        eq(licences.customerId, c.customerId),
        eq(licences.holderId, row.subjectId),
        inArray(licences.status, ['active', 'suspended']),
      ),
    );
  if (held.length === 0) return null;
  const numbers = held.map((l) => l.number).join(', ');
  const message =
    `The DBS update service reports new information on certificate ${certificate} (checked ${checked}): review licence ${numbers}.`.slice(
      0,
      MESSAGE_MAX,
    );
  const [flag] = await ctx.tx
    .insert(flags)
    .values({
      customerId: c.customerId,
      caseId: c.caseId,
      subjectId: row.subjectId,
      kind: 'rule',
      message,
      createdByName: 'Licensing: DBS update service',
    })
    .returning({ id: flags.id });
  await recordAudit(ctx.tx, ctx.actor, {
    verb: 'created',
    contentType: 'flags.flag',
    objectId: flag?.id ?? null,
    objectRepr: message.slice(0, 200),
    changes: { kind: 'rule', case: c.caseId, subject: row.subjectId, message },
  });
  return flag?.id ?? null;
}
