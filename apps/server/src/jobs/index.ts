import type { AppDeps } from '../app-deps.js';
import { documentThumbnailsJob } from '../modules/case-documents/thumbnail-job.js';
import { checkJobKinds } from '../modules/checks/jobs.js';
import { subscriptionCardRetryJob } from '../modules/cycles/subscription-card-retry-job.js';
import { subscriptionsDueJob } from '../modules/cycles/subscriptions-due-job.js';
import { documentKeysJob } from '../modules/encryption/document-keys-job.js';
import { fieldKeysJob } from '../modules/encryption/field-keys-job.js';
import { escalationsJob } from '../modules/escalation/escalation-job.js';
import { expiryRemindersJob } from '../modules/expiry-calendar/expiry-reminders-job.js';
import { subjectImportJob } from '../modules/imports/import-job.js';
import { applicationPaidJobKind } from '../modules/lms/application-paid-job.js';
import { updateServiceCyclesJob } from '../modules/lms/update-service-cycles-job.js';
import { caseChargeJob } from '../modules/payments/case-charge.js';
import { refundRetryJob } from '../modules/payments/ops-payments.js';
import { providerIntentJob } from '../modules/payments/provider-intent-job.js';
import { topUpIntentJob } from '../modules/payments/top-up-job.js';
import { registrationCaseJobKind } from '../modules/regportals/case-job.js';
import { registrationExpiryJob } from '../modules/regportals/expiry-job.js';
import { remindersDueJob } from '../modules/reminders/reminders-due-job.js';
import { sendSmsJob } from '../modules/reminders/send-sms-job.js';
import { retentionDueJob } from '../modules/retention/retention-job.js';
import { webhookDeliveryJob, webhookEventJob } from '../modules/webhooks/webhook-jobs.js';
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
  refundRetryJob as JobKind<unknown, AppDeps>,
  documentThumbnailsJob as JobKind<unknown, AppDeps>,
  documentKeysJob as JobKind<unknown, AppDeps>,
  fieldKeysJob as JobKind<unknown, AppDeps>,
  subjectImportJob as JobKind<unknown, AppDeps>,
  subscriptionsDueJob as JobKind<unknown, AppDeps>,
  subscriptionCardRetryJob as JobKind<unknown, AppDeps>,
  applicationPaidJobKind as JobKind<unknown, AppDeps>,
  updateServiceCyclesJob as JobKind<unknown, AppDeps>,
  webhookEventJob as JobKind<unknown, AppDeps>,
  webhookDeliveryJob as JobKind<unknown, AppDeps>,
  sendSmsJob as JobKind<unknown, AppDeps>,
  remindersDueJob as JobKind<unknown, AppDeps>,
  expiryRemindersJob as JobKind<unknown, AppDeps>,
  escalationsJob as JobKind<unknown, AppDeps>,
  retentionDueJob as JobKind<unknown, AppDeps>,
  registrationExpiryJob as JobKind<unknown, AppDeps>,
  registrationCaseJobKind as JobKind<unknown, AppDeps>,
];
