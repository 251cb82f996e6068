import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import { type JobKind, type JobRequest, jobOf } from '../../platform/jobs.js';
import { failImport, runImport } from './imports.service.js';

const payload = z.object({
  customer_id: z.number().int().positive(),
  import_id: z.number().int().positive(),
});
export type ImportJob = z.infer<typeof payload>;

const RETRIES = 3;

/**
 * Runs an import (issue 29): batches of rows, each its own transaction with the rows' outcomes
 * (see runImport), so a retry after a crash or a failure goes on where the last batch committed.
 * After the last retry the import is marked failed with the error.
 */
export const subjectImportJob: JobKind<ImportJob, AppDeps> = {
  name: 'subject-import',
  payload,
  retry: { limit: RETRIES, delaySeconds: 10, backoff: true },
  expireInSeconds: 3600,
  handle: async (data, deps) => {
    try {
      await runImport(deps, data.customer_id, data.import_id);
    } catch (err) {
      await failImport(
        deps,
        data.customer_id,
        data.import_id,
        err instanceof Error ? err.message : String(err),
      );
      throw err;
    }
  },
};

/** The job running import `importId`. */
export function importJob(customerId: number, importId: number): JobRequest {
  return jobOf(subjectImportJob, { customer_id: customerId, import_id: importId });
}
