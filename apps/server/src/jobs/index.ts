import type { AppDeps } from '../app-deps.js';
import type { JobKind } from '../platform/jobs.js';
import { housekeepingJob } from './housekeeping.js';
import { sendEmailJob } from './send-email.js';

/** Every kind of job the server runs. */
export const jobKinds: JobKind<unknown, AppDeps>[] = [sendEmailJob, housekeepingJob];
