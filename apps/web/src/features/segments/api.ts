import { defineResource } from '../../api/resource';

/**
 * A segment as /api/segments/ answers it (provisional until the segments contract is
 * committed: then the domain's type).
 */
export interface Segment {
  id: number;
  name: string;
  employer_name: string;
  line_one: string;
  line_two: string;
  town: string;
  postcode: string;
  contact_name: string;
  contact_email: string;
  contact_phone: string;
  user_count: number;
  process_count: number;
  created_at: string;
  updated_at: string;
}

/** /api/segments/: list with search, retrieve, create, update, delete. */
export const segments = defineResource<Segment>('/api/segments/', {
  item: 'segment',
  plural: 'segments',
});

/** A user of a segment as /api/segments/{id}/users/ lists it (provisional). */
export interface SegmentUser {
  id: number;
  first_name: string;
  last_name: string;
  email: string;
  is_active: boolean;
}

/** A process of a segment as /api/segments/{id}/processes/ lists it (provisional). */
export interface SegmentProcess {
  id: number;
  name: string;
  is_active: boolean;
}
