import type { SegmentOut, SegmentProcessOut, SegmentUserOut } from '@kestrel/domain';
import { defineResource } from '../../api/resource';

/** A segment as /api/segments/ answers it (contract: segmentOut). */
export type Segment = SegmentOut;
/** A user of a segment (contract: segmentUserOut). */
export type SegmentUser = SegmentUserOut;
/** A process of a segment (contract: segmentProcessOut). */
export type SegmentProcess = SegmentProcessOut;

/** /api/segments/: list with search, retrieve, create, update, delete. */
export const segments = defineResource<Segment>('/api/segments/', {
  item: 'segment',
  plural: 'segments',
});
