import { ask, type EligibleDocumentType, COMMON_QUESTIONS as Q } from './document-eligibility.js';
import { RTW_SUPPORTING_DOCUMENT_TYPES } from './rtw-supporting-documents.js';

const withNiNumber = ask(
  'with-ni-number',
  'Is it shown together with an official document giving the subject’s National Insurance number?',
  'Is it shown together with an official document giving your National Insurance number?',
);
const permitsWork = ask(
  'permits-work',
  'Does the document say the subject is allowed to work in the UK, and in this kind of work?',
  'Does the document say you are allowed to work in the UK, and in this kind of work?',
);
const dateOfBirthMatches = ask(
  'dob-matches',
  'Is the date of birth the same on every document the subject has shown?',
  'Is the date of birth the same on every document you have shown?',
);
const photoId = [Q.original, Q.photoMatches, Q.nameMatches, dateOfBirthMatches, Q.notTampered];
const supporting = [Q.original, Q.nameMatches, Q.notTampered];

/**
 * The right-to-work list: documents that show a right to work in the UK (List A: no time
 * limit; List B group 1 and group 2: time-limited), online checks, and supporting documents
 * (National Insurance number, change of name), with our own confirmation questions.
 */
export const RTW_DOCUMENT_TYPES: readonly EligibleDocumentType[] = [
  {
    code: 'british-passport',
    name: 'British passport (current or expired)',
    group: 'A',
    questions: [
      ...photoId,
      ask(
        'british-citizen',
        'Does the passport describe the holder as a British citizen?',
        'Does the passport describe you as a British citizen?',
      ),
    ],
  },
  {
    code: 'right-of-abode-passport',
    name: 'Passport with a certificate of right of abode in the UK',
    group: 'A',
    questions: [
      ...photoId,
      Q.inDate,
      ask(
        'right-of-abode',
        'Does the passport hold a certificate of entitlement to the right of abode?',
      ),
    ],
  },
  {
    code: 'irish-passport',
    name: 'Irish passport or passport card (current or expired)',
    group: 'A',
    questions: photoId,
  },
  {
    code: 'ilr-passport',
    name: 'Passport endorsed with indefinite leave to remain',
    group: 'A',
    questions: [
      ...photoId,
      Q.inDate,
      ask(
        'ilr-endorsement',
        'Does the passport carry an endorsement of indefinite leave, no time limit or exemption from immigration control?',
      ),
    ],
  },
  {
    code: 'ilr-immigration-document',
    name: 'Immigration status document showing indefinite leave to remain',
    group: 'A',
    questions: [...photoId, withNiNumber],
  },
  {
    code: 'uk-birth-certificate',
    name: 'Full UK birth or adoption certificate',
    group: 'A',
    questions: [
      ...supporting,
      ask('full-certificate', 'Is it the full certificate naming at least one parent?'),
      withNiNumber,
    ],
  },
  {
    code: 'crown-dependency-birth-certificate',
    name: 'Birth or adoption certificate from the Channel Islands, Isle of Man or Ireland',
    group: 'A',
    questions: [...supporting, withNiNumber],
  },
  {
    code: 'naturalisation-certificate',
    name: 'Certificate of registration or naturalisation as a British citizen',
    group: 'A',
    questions: [...supporting, withNiNumber],
  },
  {
    code: 'crown-dependency-settled-status',
    name: 'Settled status document from Jersey, Guernsey or the Isle of Man',
    group: 'A',
    questions: [
      ...photoId,
      ask('settled', 'Does it grant indefinite (settled) leave under the EU Settlement Scheme?'),
    ],
  },
  {
    code: 'limited-leave-passport',
    name: 'Current passport endorsed with permission to stay and work',
    group: 'B1',
    questions: [...photoId, Q.inDate, permitsWork],
  },
  {
    code: 'limited-leave-immigration-document',
    name: 'Current immigration status document with permission to work',
    group: 'B1',
    questions: [...photoId, Q.inDate, permitsWork, withNiNumber],
  },
  {
    code: 'crown-dependency-pre-settled-status',
    name: 'Pre-settled status document from Jersey, Guernsey or the Isle of Man',
    group: 'B2',
    questions: [
      ...photoId,
      ask(
        'pre-settled',
        'Does it grant limited (pre-settled) leave under the EU Settlement Scheme?',
      ),
    ],
  },
  {
    code: 'application-registration-card',
    name: 'Application registration card allowing work',
    group: 'B2',
    questions: [
      ...photoId,
      permitsWork,
      ask(
        'pvn-obtained',
        'Has a positive verification notice been received from the Home Office for this card?',
      ),
    ],
  },
  {
    code: 'certificate-of-application',
    name: 'Certificate of application to the EU Settlement Scheme',
    group: 'B2',
    questions: [
      ...supporting,
      ask(
        'pvn-obtained',
        'Has a positive verification notice been received from the Home Office for this application?',
      ),
    ],
  },
  {
    code: 'positive-verification-notice',
    name: 'Positive verification notice from the Home Office',
    group: 'B2',
    questions: [
      Q.nameMatches,
      ask('within-6-months', 'Was the notice issued within the last 6 months?'),
      permitsWork,
    ],
  },
  {
    code: 'e-visa',
    name: 'e-Visa (online right-to-work check)',
    group: 'online',
    questions: [
      ask(
        'share-code-checked',
        'Was the check done on the Home Office online service with the subject’s share code?',
        'Was the check done on the Home Office online service with your share code?',
      ),
      Q.photoMatches,
      permitsWork,
      ask('profile-saved', 'Has the profile page been saved as a PDF or printed?'),
    ],
  },
  {
    code: 'biometric-residence-permit',
    name: 'Biometric residence permit (checked online)',
    group: 'online',
    questions: [
      Q.original,
      Q.photoMatches,
      ask(
        'online-check-done',
        'Was the right to work confirmed through the Home Office online service?',
      ),
    ],
  },
  {
    code: 'frontier-worker-permit',
    name: 'Frontier worker permit (checked online)',
    group: 'online',
    questions: [
      Q.photoMatches,
      Q.inDate,
      ask(
        'online-check-done',
        'Was the right to work confirmed through the Home Office online service?',
      ),
    ],
  },
  {
    code: 'digital-identity-check',
    name: 'Digital identity check of a British or Irish passport',
    group: 'online',
    questions: [
      ask('certified-provider', 'Was the check done by a certified identity service provider?'),
      ask('passport-in-date', 'Was the passport checked in date?'),
      Q.photoMatches,
    ],
  },
  ...RTW_SUPPORTING_DOCUMENT_TYPES,
];
