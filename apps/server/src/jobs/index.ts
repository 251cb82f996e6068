import type { AppDeps } from '../app-deps.js';
import { documentThumbnailsJob } from '../modules/case-documents/thumbnail-job.js';
import { checkJobKinds } from '../modules/checks/jobs.js';
import { subscriptionsDueJob } from '../modules/cycles/subscriptions-due-job.js';
import { subjectImportJob } from '../modules/imports/import-job.js';
import { caseChargeJob } from '../modules/payments/case-charge.js';
import { providerIntentJob } from '../modules/payments/provider-intent-job.js';
import { topUpIntentJob } from '../modules/payments/top-up-job.js';
import type { JobKind } from '../platform/jobs.js';
import { housekeepingJob, statisticsJob } from './housekeeping.js';
import { sendEmailJob } from './send-email.js';

/** Every kind of job the server runs. */
export const jobKinds: JobKind<unknown, AppDeps>[] = [
  sendEmailJob,
  housekeepingJob,
  statisticsJob as JobKind<unknown, AppDeps>,
  ...(checkJobKinds as JobKind<unknown, AppDeps>[]),
  topUpIntentJob as JobKind<unknown, AppDeps>,
  providerIntentJob as JobKind<unknown, AppDeps>,
  caseChargeJob as JobKind<unknown, AppDeps>,
  documentThumbnailsJob as JobKind<unknown, AppDeps>,
  subjectImportJob as JobKind<unknown, AppDeps>,
  subscriptionsDueJob as JobKind<unknown, AppDeps>,
];
