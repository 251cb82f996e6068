import type { RecordViewKind, RecordViewManner, RecordViewOut } from '@kestrel/domain';
import { defineResource } from '../../api/resource';

/**
 * Who saw what (issue 34): one row of /api/record-views/, a person's views of one item (the
 * domain's contract, contracts/record-views.ts).
 */
export type RecordView = RecordViewOut;
export type { RecordViewKind };

export const RECORD_VIEW_KINDS: { value: RecordViewKind; label: string }[] = [
  { value: 'criminal_record', label: 'Criminal-record result' },
  { value: 'driving_record', label: 'Driving record' },
  { value: 'document', label: 'Document' },
];

export const kindLabel = (kind: string) =>
  RECORD_VIEW_KINDS.find((k) => k.value === kind)?.label ?? kind;

const HOW_WORDS: Record<RecordViewManner, string> = {
  page: 'Viewed',
  download: 'Downloaded',
  export: 'Exported',
};

/** How an item was seen, in words: on screen, its file downloaded, in a PDF or CSV export. */
export const howLabel = (how: RecordViewManner) => HOW_WORDS[how];

/** Who, in words: the person's name, an API key's, the subject's (the applicant). */
export function viewerLabel(v: Pick<RecordView, 'actor_name' | 'actor_type'>): string {
  return v.actor_name || (v.actor_type === 'SubjectUser' ? 'The applicant' : 'Unknown');
}

export const recordViews = defineResource<RecordView>('/api/record-views/', {
  item: 'view',
  plural: 'views',
});
