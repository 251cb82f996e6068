import { ask, type EligibleDocumentType, COMMON_QUESTIONS as Q } from './document-eligibility.js';

const photoId = [Q.original, Q.inDate, Q.photoMatches, Q.nameMatches, Q.notTampered];
const recentStatement = [Q.original, Q.within3Months, Q.notOnline, Q.nameMatches, Q.addressMatches];
const yearlyStatement = [
  Q.original,
  Q.within12Months,
  Q.notOnline,
  Q.nameMatches,
  Q.addressMatches,
];

/**
 * The identity-check list: the documents accepted to confirm a subject's identity for a
 * criminal-record check, in three groups (1: primary; 2a: trusted government documents;
 * 2b: financial and social history documents), with our own confirmation questions.
 */
export const IDENTITY_DOCUMENT_TYPES: readonly EligibleDocumentType[] = [
  { code: 'passport', name: 'Passport', group: '1', questions: photoId },
  {
    code: 'e-visa',
    name: 'e-Visa',
    group: '1',
    questions: [
      ask(
        'share-code-checked',
        'Was the e-Visa viewed through the Home Office online service with the subject’s share code?',
        'Was the e-Visa viewed through the Home Office online service with your share code?',
      ),
      Q.photoMatches,
      Q.nameMatches,
    ],
  },
  {
    code: 'biometric-residence-permit',
    name: 'Biometric residence permit (UK)',
    group: '1',
    questions: [
      Q.original,
      ask('brp-expiry', 'Is the permit in date, or did it expire no more than 18 months ago?'),
      Q.photoMatches,
      Q.nameMatches,
    ],
  },
  {
    code: 'photocard-driving-licence-uk',
    name: 'Photocard driving licence (UK, Isle of Man, Channel Islands or Ireland)',
    group: '1',
    questions: [
      ...photoId,
      ask(
        'full-or-provisional',
        'Is it a full or provisional licence (not an international driving permit)?',
      ),
    ],
  },
  {
    code: 'birth-certificate-at-birth',
    name: 'Birth certificate issued at the time of birth (UK, Isle of Man, Channel Islands)',
    group: '1',
    questions: [
      Q.original,
      ask(
        'issued-within-12-months',
        'Was the certificate issued within 12 months of the date of birth?',
      ),
      ask('full-certificate', 'Is it the full certificate showing the parents’ details?'),
      Q.nameMatches,
    ],
  },
  {
    code: 'adoption-certificate',
    name: 'Adoption certificate (UK, Isle of Man, Channel Islands)',
    group: '1',
    questions: [Q.original, Q.ukIssued, Q.nameMatches, Q.notTampered],
  },
  {
    code: 'photocard-driving-licence-non-eea',
    name: 'Photocard driving licence (outside the EEA)',
    group: '2a',
    questions: [
      ...photoId,
      ask('not-international', 'Is it a national licence, not an international driving permit?'),
    ],
  },
  {
    code: 'paper-driving-licence',
    name: 'Paper driving licence (UK)',
    group: '2a',
    questions: [
      Q.original,
      ask('issued-before-1998', 'Was the paper licence issued before 1998?'),
      Q.nameMatches,
      Q.addressMatches,
    ],
  },
  {
    code: 'birth-certificate-later',
    name: 'Birth certificate issued after the time of birth (UK, Isle of Man, Channel Islands)',
    group: '2a',
    questions: [Q.original, Q.ukIssued, Q.nameMatches, Q.notTampered],
  },
  {
    code: 'marriage-certificate',
    name: 'Marriage or civil partnership certificate (UK or Channel Islands)',
    group: '2a',
    questions: [Q.original, Q.ukIssued, Q.nameMatches],
  },
  {
    code: 'immigration-document',
    name: 'Immigration document, visa or work permit (issued abroad)',
    group: '2a',
    questions: [
      Q.original,
      Q.inDate,
      ask(
        'valid-for-role',
        'Is it valid for the role the subject is applying for?',
        'Is it valid for the role you are applying for?',
      ),
      Q.photoMatches,
      Q.nameMatches,
    ],
  },
  { code: 'hm-forces-id', name: 'HM Forces identity card (UK)', group: '2a', questions: photoId },
  {
    code: 'firearms-licence',
    name: 'Firearms or shotgun certificate (UK, Channel Islands, Isle of Man)',
    group: '2a',
    questions: [...photoId, Q.addressMatches],
  },
  {
    code: 'mortgage-statement',
    name: 'Mortgage statement',
    group: '2b',
    questions: [...yearlyStatement, Q.ukIssued],
  },
  {
    code: 'bank-statement',
    name: 'Bank or building society statement',
    group: '2b',
    questions: recentStatement,
  },
  {
    code: 'bank-account-opening-letter',
    name: 'Bank or building society account opening letter',
    group: '2b',
    questions: [Q.original, Q.within3Months, Q.nameMatches, Q.addressMatches],
  },
  {
    code: 'credit-card-statement',
    name: 'Credit card statement',
    group: '2b',
    questions: recentStatement,
  },
  {
    code: 'financial-statement',
    name: 'Financial statement (for example a pension or endowment)',
    group: '2b',
    questions: yearlyStatement,
  },
  { code: 'p45-p60', name: 'P45 or P60 statement', group: '2b', questions: yearlyStatement },
  {
    code: 'council-tax-statement',
    name: 'Council tax statement',
    group: '2b',
    questions: [...yearlyStatement, Q.ukIssued],
  },
  {
    code: 'sponsorship-letter',
    name: 'Letter of sponsorship from a future employer',
    group: '2b',
    questions: [
      Q.original,
      ask(
        'applicant-abroad',
        'Is the subject living outside the UK at the time of the application?',
        'Are you living outside the UK at the time of the application?',
      ),
      Q.within12Months,
      Q.nameMatches,
    ],
  },
  {
    code: 'utility-bill',
    name: 'Utility bill (not a mobile phone bill)',
    group: '2b',
    questions: [
      ...recentStatement,
      ask(
        'not-mobile-phone',
        'Is the bill for a utility such as gas, electricity, water or a landline (not a mobile phone)?',
      ),
    ],
  },
  { code: 'benefit-statement', name: 'Benefit statement', group: '2b', questions: recentStatement },
  {
    code: 'government-letter',
    name: 'Letter or document from central or local government, a government agency or a council',
    group: '2b',
    questions: recentStatement,
  },
  {
    code: 'eea-identity-card',
    name: 'National identity card (EEA)',
    group: '2b',
    questions: [...photoId, ask('eea-issued', 'Was the card issued by an EEA country?')],
  },
  {
    code: 'pass-card',
    name: 'Proof-of-age card with the PASS hologram',
    group: '2b',
    questions: [...photoId, ask('pass-hologram', 'Does the card carry the PASS hologram?')],
  },
  {
    code: 'head-teacher-letter',
    name: 'Letter from a head teacher or college principal',
    group: '2b',
    questions: [
      Q.original,
      ask(
        'age-16-to-19',
        'Is the subject aged 16 to 19 and in full-time education?',
        'Are you aged 16 to 19 and in full-time education?',
      ),
      ask('on-letterhead', 'Is the letter on the school’s or college’s headed paper and signed?'),
      Q.within3Months,
      Q.nameMatches,
    ],
  },
  {
    code: 'northern-ireland-voters-card',
    name: 'Electoral identity card (Northern Ireland)',
    group: '2b',
    questions: photoId,
  },
  {
    code: 'prison-service-letter',
    name: 'Letter of confirmation of release from a prison service',
    group: '2b',
    questions: [
      Q.original,
      Q.within3Months,
      Q.nameMatches,
      ask(
        'official-stamp',
        'Does the letter carry the prison service’s official stamp or letterhead?',
      ),
    ],
  },
  {
    code: 'irish-passport-card',
    name: 'Irish passport card',
    group: '2b',
    questions: [
      ...photoId,
      ask(
        'not-with-irish-passport',
        'Is it being used without the subject’s Irish passport as a second document?',
        'Is it being used without your Irish passport as a second document?',
      ),
    ],
  },
];
