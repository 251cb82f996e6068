import { type EligibleDocumentType, IDENTITY_DOCUMENT_TYPES } from '@kestrel/domain';

/**
 * Reference data of the DBS identity checking guidelines (groups and routes), kept in the repo:
 * the picker reads nothing else at run time.
 *
 * Standard and enhanced checks:
 * - Route 1: one Group 1 document and two more from Groups 1, 2a or 2b; one must show the
 *   current address.
 * - Route 2 (only when Route 1 is impossible): one Group 2a document and two more from 2a or 2b,
 *   plus an external identity validation (GPG45 Medium, pass or fail); one must show the
 *   current address.
 * - Route 3: a birth certificate issued after the time of birth, one more Group 2a document and
 *   three more from 2a or 2b; otherwise fingerprints at the police.
 * Basic checks: two documents, one from Group 1, one showing the current address.
 */

export type DbsGroup = '1' | '2a' | '2b';
export type CheckLevel = 'basic' | 'standard-enhanced';

export const DBS_GROUPS: readonly { group: DbsGroup; title: string; description: string }[] = [
  {
    group: '1',
    title: 'Group 1: primary identity documents',
    description:
      'Passports, permits and photocard licences from the UK, and certificates issued at birth or adoption.',
  },
  {
    group: '2a',
    title: 'Group 2a: trusted government documents',
    description: 'Other licences and certificates issued by a government.',
  },
  {
    group: '2b',
    title: 'Group 2b: financial and social history documents',
    description: 'Statements and letters, most of which must be recent (3 or 12 months).',
  },
];

/** Identity documents that show the holder's address (besides statements asking it). */
const ADDRESS_DOCUMENTS = new Set([
  'photocard-driving-licence-uk',
  'paper-driving-licence',
  'firearms-licence',
]);
/** The one Route 3 needs: a birth certificate issued after the time of birth. */
export const LATER_BIRTH_CERTIFICATE = 'birth-certificate-later';

export interface PickerDocument {
  code: string;
  name: string;
  group: DbsGroup;
  /** It can show the current address. */
  showsAddress: boolean;
}

const isGroup = (g: string): g is DbsGroup => g === '1' || g === '2a' || g === '2b';

export const PICKER_DOCUMENTS: readonly PickerDocument[] = IDENTITY_DOCUMENT_TYPES.filter(
  (t): t is EligibleDocumentType & { group: DbsGroup } => isGroup(t.group),
).map((t) => ({
  code: t.code,
  name: t.name,
  group: t.group,
  showsAddress:
    ADDRESS_DOCUMENTS.has(t.code) || t.questions.some((q) => q.id === 'address-matches'),
}));

export interface RouteOutcome {
  route: 1 | 2 | 3;
  title: string;
  met: boolean;
  /** What is still missing, in plain words (empty when met). */
  missing: string[];
  /** A condition that applies even when the documents are enough. */
  note?: string;
}

const more = (n: number, from: string) =>
  n === 1 ? `1 more document from ${from}` : `${n} more documents from ${from}`;

function count(docs: readonly PickerDocument[], groups: readonly DbsGroup[]) {
  return docs.filter((d) => groups.includes(d.group)).length;
}

/**
 * Which routes the chosen documents satisfy for a check level, and what each still needs.
 * Basic has one route; standard and enhanced have three, tried in order.
 */
export function evaluateRoutes(codes: readonly string[], level: CheckLevel): RouteOutcome[] {
  const docs = PICKER_DOCUMENTS.filter((d) => codes.includes(d.code));
  const address = docs.some((d) => d.showsAddress);
  const addressMissing = address ? [] : ['a document that shows your current address'];
  const g1 = count(docs, ['1']);
  if (level === 'basic') {
    const others = docs.length - Math.min(g1, 1);
    const missing = [
      ...(g1 === 0 ? ['a Group 1 document'] : []),
      ...(others < 1 ? [more(1, 'any group')] : []),
      ...addressMissing,
    ];
    return [{ route: 1, title: 'Basic check', met: missing.length === 0, missing }];
  }

  const r1Missing = [
    ...(g1 === 0 ? ['a Group 1 document'] : []),
    ...(() => {
      const others = docs.length - Math.min(g1, 1);
      return others < 2 ? [more(2 - others, 'Group 1, 2a or 2b')] : [];
    })(),
    ...addressMissing,
  ];

  const g2a = count(docs, ['2a']);
  const g2 = count(docs, ['2a', '2b']);
  const r2Missing = [
    ...(g2a === 0 ? ['a Group 2a document'] : []),
    ...(() => {
      const others = g2 - Math.min(g2a, 1);
      return others < 2 ? [more(2 - others, 'Group 2a or 2b')] : [];
    })(),
    ...addressMissing,
  ];

  const birth = docs.some((d) => d.code === LATER_BIRTH_CERTIFICATE);
  const other2a = docs.filter((d) => d.group === '2a' && d.code !== LATER_BIRTH_CERTIFICATE).length;
  const rest = g2 - (birth ? 1 : 0) - Math.min(other2a, 1);
  const r3Missing = [
    ...(birth ? [] : ['a birth certificate issued after the time of birth']),
    ...(other2a === 0 ? ['another Group 2a document'] : []),
    ...(rest < 3 ? [more(3 - rest, 'Group 2a or 2b')] : []),
    ...addressMissing,
  ];

  return [
    { route: 1, title: 'Route 1', met: r1Missing.length === 0, missing: r1Missing },
    {
      route: 2,
      title: 'Route 2',
      met: r2Missing.length === 0,
      missing: r2Missing,
      note: 'Only when Route 1 is not possible, and your identity must also pass an external identity validation.',
    },
    {
      route: 3,
      title: 'Route 3',
      met: r3Missing.length === 0,
      missing: r3Missing,
      note: 'When Routes 1 and 2 are not possible. Otherwise you will be asked to give your fingerprints at a police station.',
    },
  ];
}
