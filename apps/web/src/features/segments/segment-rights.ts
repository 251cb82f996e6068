import { useRights } from '../../lib/rights';
import { useSession } from '../../lib/session/session-store';

/** Shown to a user limited to segments where others may change a segment's members. */
export const LIMITED_MEMBERS_NOTE =
  'You are limited to segments, so only a user who is not can change who or what is in a segment.';

export interface SegmentRights {
  /** The signed-in user is limited to segments (their profile names them). */
  limited: boolean;
  /** Add and remove a segment's users and processes: the server refuses a limited user. */
  changeMembers: boolean;
  /** Delete a segment (its processes would leave the limited user's sight): refused as well. */
  remove: boolean;
  /** Edit a segment's details: allowed to anyone with change_segment. */
  editDetails: boolean;
}

/** What the segment screens offer, the same as the server allows (segments.routes.ts). */
export function useSegmentRights(): SegmentRights {
  const { can } = useRights();
  const profile = useSession().bootstrap?.profile;
  const limited =
    profile?.user_type === 'ProductUser' && !profile.is_ops && (profile.segments ?? []).length > 0;
  return {
    limited,
    changeMembers: can('segments.change_segment') && !limited,
    remove: can('segments.delete_segment') && !limited,
    editDetails: can('segments.change_segment'),
  };
}
