import { ask, type EligibleDocumentType, COMMON_QUESTIONS as Q } from './document-eligibility.js';

const supporting = [Q.original, Q.nameMatches, Q.notTampered];

/**
 * Right-to-work supporting documents: proof of a National Insurance number, evidence of a change
 * of name, and other documents shown alongside List A or List B.
 */
export const RTW_SUPPORTING_DOCUMENT_TYPES: readonly EligibleDocumentType[] = [
  {
    code: 'ni-number-letter',
    name: 'Letter from HMRC or the DWP giving a National Insurance number',
    group: 'support',
    questions: [
      ...supporting,
      ask(
        'shows-ni-number',
        'Does the letter show the subject’s National Insurance number?',
        'Does the letter show your National Insurance number?',
      ),
    ],
  },
  {
    code: 'p45',
    name: 'P45',
    group: 'support',
    questions: [
      ...supporting,
      ask(
        'shows-ni-number',
        'Does the P45 show the subject’s National Insurance number?',
        'Does the P45 show your National Insurance number?',
      ),
    ],
  },
  {
    code: 'p60',
    name: 'P60',
    group: 'support',
    questions: [
      ...supporting,
      ask(
        'shows-ni-number',
        'Does the P60 show the subject’s National Insurance number?',
        'Does the P60 show your National Insurance number?',
      ),
    ],
  },
  {
    code: 'ni-number-card',
    name: 'National Insurance number card',
    group: 'support',
    questions: supporting,
  },
  {
    code: 'payslip',
    name: 'Payslip from a previous employer',
    group: 'support',
    questions: [
      ...supporting,
      ask(
        'shows-ni-number',
        'Does the payslip show the subject’s National Insurance number?',
        'Does the payslip show your National Insurance number?',
      ),
      Q.within12Months,
    ],
  },
  {
    code: 'marriage-certificate',
    name: 'Marriage or civil partnership certificate (change of name)',
    group: 'support',
    questions: [
      ...supporting,
      ask(
        'explains-name-change',
        'Does the certificate explain the difference between the names on the subject’s documents?',
        'Does the certificate explain the difference between the names on your documents?',
      ),
    ],
  },
  {
    code: 'divorce-decree',
    name: 'Divorce or dissolution decree (change of name)',
    group: 'support',
    questions: [
      ...supporting,
      ask(
        'explains-name-change',
        'Does the decree explain the difference between the names on the subject’s documents?',
        'Does the decree explain the difference between the names on your documents?',
      ),
    ],
  },
  {
    code: 'deed-poll',
    name: 'Deed poll or statutory declaration (change of name)',
    group: 'support',
    questions: [
      ...supporting,
      ask(
        'explains-name-change',
        'Does the deed explain the difference between the names on the subject’s documents?',
        'Does the deed explain the difference between the names on your documents?',
      ),
    ],
  },
  {
    code: 'short-birth-certificate',
    name: 'Short birth certificate (supporting only)',
    group: 'support',
    questions: [
      ...supporting,
      ask('not-alone', 'Is it shown with a document from List A or List B rather than on its own?'),
    ],
  },
  {
    code: 'home-office-letter',
    name: 'Letter from the Home Office about an application or appeal',
    group: 'support',
    questions: [
      ...supporting,
      Q.within3Months,
      ask(
        'pvn-requested',
        'Has a positive verification notice been requested from the Home Office?',
      ),
    ],
  },
  {
    code: 'utility-bill',
    name: 'Utility bill (proof of address, supporting only)',
    group: 'support',
    questions: [Q.original, Q.within3Months, Q.notOnline, Q.nameMatches, Q.addressMatches],
  },
];
