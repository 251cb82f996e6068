/** Deprecated home: `runForCaseRequest` is the subject access policy's (platform/subject-access.ts). */
export { type CaseTarget, runForCaseRequest } from '../../platform/subject-access.js';
