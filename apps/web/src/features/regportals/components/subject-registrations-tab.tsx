import { formatDate } from '@kestrel/domain';
import { Anchor } from '@mantine/core';
import { Link } from 'react-router';
import { type Column, ResourceTable } from '../../../components/resource-table';
import { href } from '../../../config/paths';
import { type PortalRegistration, portalRegistrations } from '../api';
import { RegistrationStateBadge } from './registration-state-badge';

const COLUMNS: Column<PortalRegistration>[] = [
  {
    key: 'portal',
    header: 'Portal',
    render: (r) => (
      <Anchor component={Link} to={href('portal-registration', { id: r.id })} fw={600}>
        {r.portal_title}
      </Anchor>
    ),
  },
  {
    key: 'email',
    header: 'Email',
    // a long address wraps on a phone rather than running past the card
    render: (r) => <span style={{ overflowWrap: 'anywhere' }}>{r.email}</span>,
  },
  { key: 'started', header: 'Started', render: (r) => formatDate(r.started_at) },
  { key: 'state', header: 'State', render: (r) => <RegistrationStateBadge state={r.state} /> },
  {
    key: 'case',
    header: 'Case',
    render: (r) =>
      r.case_id === null ? (
        '—'
      ) : (
        <Anchor component={Link} to={href('case-detail', { id: r.case_id })}>
          #{r.case_id}
        </Anchor>
      ),
  },
];

/**
 * The subject page's Registrations tab: the registrations through the customer's portals that
 * came to this subject (GET /api/portal-registrations/?subject={id}), newest first.
 */
export function SubjectRegistrationsTab({ subjectId }: { subjectId: number }) {
  return (
    <ResourceTable<PortalRegistration>
      resource={portalRegistrations}
      params={{ subject: subjectId }}
      searchable={false}
      pageSize={10}
      empty={{
        title: 'This subject has no portal registrations.',
        text: 'People who register themselves through a registration portal appear here.',
      }}
      columns={COLUMNS}
    />
  );
}
