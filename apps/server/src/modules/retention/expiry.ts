import {
  ACCESS_LOG_RETENTION_MONTHS,
  accessLogMonths,
  EXPIRED_PAYLOAD,
  IMPORT_ROWS_RETENTION_DAYS,
  JOB_PAYLOAD_RETENTION_DAYS,
  OUTBOX_RETENTION_DAYS,
  WEBHOOK_PAYLOAD_RETENTION_DAYS,
} from '@kestrel/domain';
import { subDays } from 'date-fns/subDays';
import { subMonths } from 'date-fns/subMonths';
import { sql } from 'drizzle-orm';
import type { Database, Tx } from '../../db/connection.js';
import { QUEUE_SCHEMA } from '../../db/queue-schema.js';
import { jobActor } from '../../jobs/service-job.js';
import { recordAudit } from '../../platform/audit.js';
import { getSettings } from './retention.service.js';

/*
 * Records no retention rule covers, expired by the retention run (issue 34): the local outbox's
 * messages, the job queue's archived payloads, webhook deliveries' payloads, finished imports'
 * rows and the access log. Each runs as the tables' owner
 * (none is one tenant's to delete through RLS: the outbox and the queue are no customer's, the
 * access log is insert-only for the application), with indexed statements, and audits a summary
 * of what went when anything did; a second run removes nothing and records nothing.
 */

/** The audit's content type of an expiry run's summary. */
export const EXPIRY_CT = 'retention.expiry';

/** How many rows of the email outbox one statement looks at (the oldest, by id). */
const OUTBOX_BATCH = 500;

/** A raw count's value (the drivers answer numbers or strings). */
const countOf = (rows: readonly Record<string, unknown>[]): number => Number(rows[0]?.n ?? 0);

/**
 * Runs `statement` (one batch: it answers `n`, how many rows it changed) until a batch changes
 * fewer than `size`; the total.
 */
async function inBatches(
  size: number,
  statement: () => Promise<readonly Record<string, unknown>[]>,
): Promise<number> {
  let total = 0;
  for (;;) {
    const n = countOf(await statement());
    total += n;
    if (n < size) return total;
  }
}

/** What a blanked payload holds instead (the resend route recognises it: webhooks.routes.ts). */
const expired = JSON.stringify(EXPIRED_PAYLOAD);
/**
 * The same as SQL text (our constant, no input): a literal, not a parameter, so the planner sees
 * that the statement asks only for rows of the partial index of deliveries still to blank
 * (webhook_deliveries_unexpired_idx, whose predicate spells the same value).
 */
const expiredLiteral = sql.raw(`'${expired.replaceAll("'", "''")}'::jsonb`);

/**
 * Deletes the email outbox's messages written before `cutoff`: the oldest first, by id (its
 * primary key; ids grow with time), a batch at a time, stopping at the first batch that is not
 * all old, so no statement reads more than a batch of rows.
 */
function expireOutboxEmails(tx: Tx, cutoff: Date): Promise<number> {
  return inBatches(OUTBOX_BATCH, () =>
    tx.execute(sql`
      with head as (select id, created_at from outbox_emails order by id limit ${OUTBOX_BATCH}),
      gone as (delete from outbox_emails o using head
        where o.id = head.id and head.created_at < ${cutoff.toISOString()} returning o.id)
      select count(*)::int as n from gone`),
  );
}

/** How many webhook deliveries or import rows one statement blanks. */
const BLANK_BATCH = 500;

/**
 * Blanks the payload and response excerpt of webhook deliveries made before `cutoff` and no
 * longer pending (the row, its event, status, attempts and times, stays as the endpoint's log):
 * endpoint by endpoint through the partial index of the deliveries still to blank
 * (webhook_deliveries_unexpired_idx, migration 0062), a batch at a time; a blanked delivery
 * leaves that index, so no run reads it again.
 */
function blankWebhookPayloads(tx: Tx, cutoff: Date): Promise<number> {
  return inBatches(BLANK_BATCH, () =>
    tx.execute(sql`
      with batch as (
        select d.customer_id, d.id from webhook_endpoints e
        cross join lateral (
          select w.customer_id, w.id from webhook_deliveries w
          where w.customer_id = e.customer_id and w.endpoint_id = e.id
            and w.created_at < ${cutoff.toISOString()} and w.status <> 'pending'
            and (w.response_excerpt <> '' or w.payload <> ${expiredLiteral})
          limit ${BLANK_BATCH}) d
        limit ${BLANK_BATCH}),
      done as (update webhook_deliveries w
        set payload = ${expired}::jsonb, response_excerpt = ''
        from batch where w.customer_id = batch.customer_id and w.id = batch.id
          and w.status <> 'pending' and (w.response_excerpt <> '' or w.payload <> ${expiredLiteral})
        returning 1)
      select count(*)::int as n from done`),
  );
}

/**
 * Empties the cells (the values read from the file) of the rows of imports that finished
 * (completed or failed) before `cutoff`, through the partial index of the rows still to empty
 * (import_rows_unexpired_idx, migration 0062), a batch at a time; the row number, outcome and
 * errors stay for the report. An emptied row leaves that index, so no run reads it again.
 */
function blankImportRows(tx: Tx, cutoff: Date): Promise<number> {
  return inBatches(BLANK_BATCH, () =>
    tx.execute(sql`
      with batch as (
        select r.customer_id, r.import_id, r.row_number from imports i
        cross join lateral (
          select x.customer_id, x.import_id, x.row_number from import_rows x
          where x.customer_id = i.customer_id and x.import_id = i.id
            and x.cells <> '[]'::jsonb
          limit ${BLANK_BATCH}) r
        where i.state in ('completed', 'failed') and i.finished_at < ${cutoff.toISOString()}
        limit ${BLANK_BATCH}),
      done as (update import_rows x set cells = '[]'::jsonb
        from batch where x.customer_id = batch.customer_id and x.import_id = batch.import_id
          and x.row_number = batch.row_number and x.cells <> '[]'::jsonb
        returning 1)
      select count(*)::int as n from done`),
  );
}

export interface GlobalExpiry {
  outbox_emails: number;
  outbox_sms: number;
  job_payloads: number;
  webhook_payloads: number;
  import_rows: number;
}

/**
 * The installation's own records past their age, as of `now`: the outbox's emails and texts
 * older than OUTBOX_RETENTION_DAYS deleted; the queue's archived jobs (pgboss.archive, by its
 * archived_on index) archived more than JOB_PAYLOAD_RETENTION_DAYS ago lose their payload and
 * output (the row: its kind, state and times, stays until pg-boss deletes it); webhook
 * deliveries older than WEBHOOK_PAYLOAD_RETENTION_DAYS lose their payload and response excerpt,
 * imports finished more than IMPORT_ROWS_RETENTION_DAYS ago their rows' cells. Audited once as
 * the system when anything went.
 */
export async function expireInstallationRecords(db: Database, now: Date): Promise<GlobalExpiry> {
  return db.ownerTransaction(async (tx) => {
    const outboxCutoff = subDays(now, OUTBOX_RETENTION_DAYS);
    const emails = await expireOutboxEmails(tx, outboxCutoff);
    const sms = countOf(
      await tx.execute(sql`with gone as (delete from outbox_sms
          where created_at < ${outboxCutoff.toISOString()} returning 1)
        select count(*)::int as n from gone`),
    );
    const jobCutoff = subDays(now, JOB_PAYLOAD_RETENTION_DAYS);
    const jobs = countOf(
      await tx.execute(sql`with done as (
          update ${sql.identifier(QUEUE_SCHEMA)}.archive
          set data = ${expired}::jsonb, output = null
          where archived_on < ${jobCutoff.toISOString()}
            and (output is not null or (data is not null
              and data is distinct from ${expired}::jsonb))
          returning 1)
        select count(*)::int as n from done`),
    );
    const webhookCutoff = subDays(now, WEBHOOK_PAYLOAD_RETENTION_DAYS);
    const webhooks = await blankWebhookPayloads(tx, webhookCutoff);
    const importCutoff = subDays(now, IMPORT_ROWS_RETENTION_DAYS);
    const imports = await blankImportRows(tx, importCutoff);
    const out = {
      outbox_emails: emails,
      outbox_sms: sms,
      job_payloads: jobs,
      webhook_payloads: webhooks,
      import_rows: imports,
    };
    if (emails + sms + jobs + webhooks + imports > 0) {
      await recordAudit(tx, jobActor(null), {
        verb: 'redacted',
        contentType: EXPIRY_CT,
        objectRepr: 'Outbox messages and job payloads removed (retention)',
        changes: {
          removed: out,
          outbox_before: outboxCutoff.toISOString(),
          job_payloads_before: jobCutoff.toISOString(),
          webhook_payloads_before: webhookCutoff.toISOString(),
          import_rows_before: importCutoff.toISOString(),
        },
        customerId: null,
      });
    }
    return out;
  });
}

/**
 * Customer `customerId`'s access log (record_views) last seen before its period
 * (`accessLogMonths`: ACCESS_LOG_RETENTION_MONTHS, or its longer criminal-record periods) as of
 * `now`, deleted by its (customer_id, last_seen_at) index; audited in the customer's log with
 * how many and before when. Returns how many went.
 */
export async function expireAccessLog(db: Database, customerId: number, now: Date) {
  return db.ownerTransaction(async (tx) => {
    const months = accessLogMonths(await getSettings(tx, customerId));
    const cutoff = subMonths(now, months);
    const n = countOf(
      await tx.execute(sql`with gone as (delete from record_views
          where customer_id = ${customerId} and last_seen_at < ${cutoff.toISOString()}
          returning 1)
        select count(*)::int as n from gone`),
    );
    if (n > 0) {
      await recordAudit(tx, jobActor(customerId), {
        verb: 'redacted',
        contentType: EXPIRY_CT,
        objectRepr: `Access log: ${n} record${n === 1 ? '' : 's'} of views removed (retention)`,
        changes: {
          removed: { record_views: n },
          before: cutoff.toISOString(),
          months,
          default_months: ACCESS_LOG_RETENTION_MONTHS,
        },
        customerId,
      });
    }
    return n;
  });
}
