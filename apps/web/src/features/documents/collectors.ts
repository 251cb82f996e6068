import {
  DBS_CHECK_CODES,
  type EligibleDocumentType,
  IDENTITY_DOCUMENT_TYPES,
  RTW_DOCUMENT_TYPES,
} from '@kestrel/domain';

/** The two document lists a collector works from (spec point 5, 'Document eligibility'). */
export type CollectorKey = 'identity' | 'right-to-work';

export interface Collector {
  /** Stored as the document's `collector`. */
  key: CollectorKey;
  title: string;
  intro: string;
  types: readonly EligibleDocumentType[];
}

export const COLLECTORS: Record<CollectorKey, Collector> = {
  identity: {
    key: 'identity',
    title: 'Identity documents',
    intro:
      'Upload the documents that prove who you are and where you live. For a criminal record check you usually need three: one from group 1 and two more, one showing your current address.',
    types: IDENTITY_DOCUMENT_TYPES,
  },
  'right-to-work': {
    key: 'right-to-work',
    title: 'Right to work documents',
    intro:
      'Upload the document that shows you may work in the UK (list A), or the time-limited documents of list B.',
    types: RTW_DOCUMENT_TYPES.filter((t) => t.group !== 'online'),
  },
};

/** The readable name of a list's group (identity: 1, 2a, 2b; right to work: A, B1, B2). */
export function groupLabel(group: string): string {
  if (group === '1' || group === '2a' || group === '2b') return `Group ${group}`;
  if (group === 'A') return 'List A';
  if (group === 'B1') return 'List B, group 1';
  if (group === 'B2') return 'List B, group 2';
  if (group === 'online') return 'Online check';
  if (group === 'support') return 'Supporting document';
  return group;
}

/** The checks whose documents prove identity: the criminal-record family's. */
const IDENTITY_CODES: readonly string[] = DBS_CHECK_CODES;

function fromName(name: string): CollectorKey {
  const n = name.toLowerCase();
  return n.includes('right') || n.includes('rtw') || n.includes('work')
    ? 'right-to-work'
    : 'identity';
}

/**
 * The collectors of a case: the document-collection activity's configured `collectors` when
 * set (a name mentioning right to work picks that list, any other the identity list); else the
 * identity list for a criminal-record check or when nothing else asks, and the right-to-work
 * list for a right-to-work check.
 */
export function collectorsForActivities(
  activities: readonly {
    activity_type: { code: string };
    config?: { collectors?: string[] | null | undefined } | null;
  }[],
): Collector[] {
  const keys = new Set<CollectorKey>();
  const configured = activities
    .filter((a) => a.activity_type.code === 'document-collection')
    .flatMap((a) => a.config?.collectors ?? []);
  for (const name of configured) keys.add(fromName(name));
  if (keys.size === 0) {
    const codes = activities.map((a) => a.activity_type.code);
    if (codes.some((c) => IDENTITY_CODES.includes(c))) keys.add('identity');
    if (codes.includes('rtw')) keys.add('right-to-work');
    if (keys.size === 0) keys.add('identity');
  }
  return (['identity', 'right-to-work'] as const)
    .filter((k) => keys.has(k))
    .map((k) => COLLECTORS[k]);
}

/** The collector of a stored document (unknown names count as the identity list). */
export function collectorOf(name: string): Collector {
  return name === 'right-to-work' || name === 'identity'
    ? COLLECTORS[name]
    : COLLECTORS[fromName(name)];
}
