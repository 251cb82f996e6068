import type { ProcessingData } from '@kestrel/domain';
import { recordAudit } from '../../platform/audit.js';
import type { ServiceContext } from '../../platform/service-context.js';
import type { ActivityLock } from '../activities/activities.service.js';
import { activityRedaction, redactedLog } from '../retention/redact.js';
import { processingOf, saveActivity } from './activity.js';
import type { Applied } from './kind.js';

/*
 * Issue 34: a provider's answer (a start's answer, a poll, a callback, a re-check) about an
 * activity whose result was redacted (an erasure, a retention rule) while it was with the
 * provider is not stored: its result stays as redacted, the provider log keeps the event (its
 * time, type and event id) with its body `{redacted: <reason>}`, and the audit log says an answer
 * was not kept, without its content. The engine no longer polls it.
 */

/** The activity's redaction reason, or null when its result was never redacted. */
export async function redactionReason(
  ctx: ServiceContext,
  a: Pick<ActivityLock, 'row'>,
): Promise<string | null> {
  const r = await activityRedaction(ctx.tx, { customerId: a.row.customerId, id: a.row.id });
  return r?.reason ?? null;
}

/**
 * `processing` (the activity's log with the provider's answer appended) written with what the
 * provider was sent and said blanked, the result and state left as they are, and the answer
 * audited as not kept. Null (nothing written) when the activity was never redacted: the caller
 * applies the answer.
 */
export async function keepRedacted(
  ctx: ServiceContext,
  a: ActivityLock,
  processing: ProcessingData,
): Promise<Applied | null> {
  const reason = await redactionReason(ctx, a);
  if (reason === null) return null;
  return { row: await logNotKept(ctx, a, processing, reason), tracking: false };
}

/** Writes `processing` with the provider's bodies blanked under `reason`, audited as not kept. */
export async function logNotKept(
  ctx: ServiceContext,
  a: ActivityLock,
  processing: ProcessingData,
  reason: string,
): Promise<ActivityLock['row']> {
  const blanked = processingOf(redactedLog(processing, reason)) ?? processing;
  const { activity } = await saveActivity(ctx, a, blanked);
  const last = blanked.events.at(-1);
  await recordAudit(ctx.tx, ctx.actor, {
    verb: 'rejected',
    contentType: 'cases.caseactivity',
    objectId: a.row.id,
    objectRepr: `Case ${a.row.caseId} activity ${a.row.id}`,
    changes: {
      not_kept: {
        reason,
        event: last ? { at: last.at, type: last.type, event_id: last.event_id ?? null } : null,
      },
    },
    customerId: a.row.customerId,
  });
  return activity;
}
