import PgBoss from 'pg-boss';
import {
  APP_ROLE,
  type Database,
  OPS_ROLE,
  SEED_ROLE,
  SUBJECT_ROLE,
  SYSTEM_ROLE,
} from './connection.js';

/** The schema of the job queue's tables (pg-boss). */
export const QUEUE_SCHEMA = 'pgboss';

/**
 * Creates the job queue's schema (pg-boss's own construction SQL, for the installed version)
 * when it is missing, so that migrations, and the test template, hold it: a started queue then
 * finds it in place and only checks its version (pg-boss migrates an older one itself).
 */
export async function installQueueSchema(db: Database): Promise<void> {
  const { rows } = await db.ownerQuery(`select to_regclass('${QUEUE_SCHEMA}.version') as name`);
  if (rows[0]?.name) return;
  await db.ownerQuery(PgBoss.getConstructionPlans(QUEUE_SCHEMA));
}

/**
 * What the application roles may do in the queue's schema: insert a job inside their own
 * transaction (the send reads the queue's settings and returns the new id), and, for the
 * ops role, read jobs (the ops list); the seed role (the demo's emails) as a request. Workers run as the owner. Idempotent.
 */
export const queueGrantsSql = `
DO $$ DECLARE r text; BEGIN
  IF to_regclass('${QUEUE_SCHEMA}.job') IS NULL THEN RETURN; END IF;
  FOREACH r IN ARRAY ARRAY['${APP_ROLE}', '${OPS_ROLE}', '${SUBJECT_ROLE}', '${SYSTEM_ROLE}', '${SEED_ROLE}'] LOOP
    EXECUTE format('GRANT USAGE ON SCHEMA ${QUEUE_SCHEMA} TO %I', r);
    EXECUTE format('GRANT SELECT ON ${QUEUE_SCHEMA}.queue TO %I', r);
    EXECUTE format('GRANT INSERT ON ${QUEUE_SCHEMA}.job TO %I', r);
    EXECUTE format('GRANT SELECT (id) ON ${QUEUE_SCHEMA}.job TO %I', r);
  END LOOP;
  EXECUTE format('GRANT SELECT ON ${QUEUE_SCHEMA}.job TO %I', '${OPS_ROLE}');
END $$;
`;
