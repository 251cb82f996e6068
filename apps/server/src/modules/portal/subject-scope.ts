/**
 * Deprecated home of the subject's case access: the policy and its runners are in
 * platform/subject-access.ts (one policy for the portal, case data, documents, the identity
 * check and bookings). These names remain for code written against them; new code imports the
 * platform's (`runForSubjectCase`, `runSystemForSubjectCase`, `lockSubjectCase`).
 */
export {
  CASE_RECORD_TABLES,
  type CaseIntent,
  lockSubjectCase as lockOwnCase,
  runForSubjectCase,
  runSubjectWrite,
  type SubjectCase as OwnCase,
  subjectCaseActor,
  subjectCustomerIds,
  subjectRecordActor,
} from '../../platform/subject-access.js';
