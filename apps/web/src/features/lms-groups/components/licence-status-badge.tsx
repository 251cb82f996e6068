import { LICENCE_STATUS_LABELS, type LicenceStatus } from '@kestrel/domain';
import { Badge } from '@mantine/core';

const COLOURS: Record<LicenceStatus, string> = {
  active: 'teal',
  suspended: 'orange',
  revoked: 'red',
  expired: 'gray',
  surrendered: 'blue',
};

/**
 * A licence's status in words (Active, Suspended, Revoked, Expired, Surrendered), one colour
 * each; never truncated (as the shared StateBadge: the label keeps its full width in a table).
 * Shared by the licensing features through this feature's index.
 */
export function LicenceStatusBadge({ status }: { status: LicenceStatus }) {
  return (
    <Badge
      variant="light"
      color={COLOURS[status]}
      data-state={`licence-${status}`}
      data-testid="licence-status"
      style={{ flexShrink: 0, overflow: 'visible', minWidth: 'max-content' }}
      styles={{ label: { overflow: 'visible', textOverflow: 'clip' } }}
    >
      {LICENCE_STATUS_LABELS[status]}
    </Badge>
  );
}

/** 'Published' or 'Draft': whether a group or sub-group shows on the public council pages. */
export function PublishedBadge({ isPublished }: { isPublished: boolean }) {
  return (
    <Badge
      variant="light"
      color={isPublished ? 'teal' : 'gray'}
      style={{ flexShrink: 0, overflow: 'visible', minWidth: 'max-content' }}
      styles={{ label: { overflow: 'visible', textOverflow: 'clip' } }}
    >
      {isPublished ? 'Published' : 'Draft'}
    </Badge>
  );
}
