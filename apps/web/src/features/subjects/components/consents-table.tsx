import {
  CONSENT_KIND_LABELS,
  CONSENT_KINDS,
  formatDate,
  type StaffConsentOut,
} from '@kestrel/domain';
import { Anchor, Badge } from '@mantine/core';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { defineResource } from '../../../api/resource';
import { type Column, ResourceTable } from '../../../components/resource-table';
import { href } from '../../../config/paths';

/** A consent a subject gave in the portal (contract: staffConsentOut). */
export type StaffConsent = StaffConsentOut;

const STATUS: Record<StaffConsent['status'], { label: string; color: string }> = {
  active: { label: 'Given', color: 'teal' },
  expiring: { label: 'Expiring soon', color: 'yellow' },
  expired: { label: 'Expired', color: 'gray' },
  withdrawn: { label: 'Withdrawn', color: 'red' },
};

const FILTERS = [
  {
    name: 'kind',
    label: 'Kind',
    options: CONSENT_KINDS.map((k) => ({ value: k, label: CONSENT_KIND_LABELS[k] })),
  },
  {
    name: 'state',
    label: 'State',
    options: [
      { value: 'given', label: 'Given' },
      { value: 'withdrawn', label: 'Withdrawn' },
      { value: 'expired', label: 'Expired' },
    ],
  },
];

/** GET /api/consents/ across subjects. */
export const allConsents = defineResource<StaffConsent>('/api/consents/', {
  item: 'consent',
  plural: 'consents',
});

/**
 * The consents subjects gave in the portal, expiring soonest first, with kind and state filters:
 * every subject's (`subjectId` absent) or one subject's.
 */
export function ConsentsTable({ subjectId }: { subjectId?: number }) {
  const resource = useMemo(
    () =>
      subjectId === undefined
        ? allConsents
        : defineResource<StaffConsent>(`/api/subjects/${subjectId}/consents/`, {
            item: 'consent',
            plural: 'consents',
          }),
    [subjectId],
  );
  const columns: Column<StaffConsent>[] = [
    ...(subjectId === undefined
      ? [
          {
            key: 'subject',
            header: 'Subject',
            render: (c: StaffConsent) => (
              <Anchor component={Link} to={href('subject', { id: c.subject.id })}>
                {c.subject.name || `Subject ${c.subject.id}`}
              </Anchor>
            ),
          },
        ]
      : []),
    { key: 'kind', header: 'Consent', render: (c) => c.kind_display },
    {
      key: 'check',
      header: 'Check',
      render: (c) => (
        <Anchor component={Link} to={href('case-detail', { id: c.case })}>
          {c.activity_type_name} (case #{c.case})
        </Anchor>
      ),
    },
    { key: 'given', header: 'Given', render: (c) => formatDate(c.given_at) },
    {
      key: 'ends',
      header: 'Expires',
      render: (c) =>
        c.withdrawn_at ? `Withdrawn ${formatDate(c.withdrawn_at)}` : formatDate(c.expires_at),
    },
    {
      key: 'status',
      header: 'State',
      render: (c) => (
        <Badge
          variant="light"
          color={STATUS[c.status].color}
          // never cut to 'GI…' in a narrow table cell (as the state badges elsewhere)
          style={{ flexShrink: 0, overflow: 'visible', minWidth: 'max-content' }}
          styles={{ label: { overflow: 'visible', textOverflow: 'clip' } }}
        >
          {STATUS[c.status].label}
        </Badge>
      ),
    },
  ];
  return (
    <ResourceTable<StaffConsent>
      resource={resource}
      columns={columns}
      filters={FILTERS}
      searchable={false}
      caption="Consents given in the portal"
      empty={{
        title: 'No consents yet',
        text: 'Consents appear here once a subject gives them in their case portal.',
      }}
    />
  );
}
