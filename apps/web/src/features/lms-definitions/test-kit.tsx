import type { Permission } from '@kestrel/domain';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { setSession } from '../../lib/session/session-store';
import { renderWithProviders } from '../../test/render';
import { product, productIn } from '../../test/sessions';
import type { ApplicationDetail, Definition, Portal, SubGroup } from './api';
import Definition_ from './screens/definition';
import DefinitionAdd from './screens/definition-add';
import DefinitionApplicationPortal from './screens/definition-application-portal';
import DefinitionApplicationPortalAdd from './screens/definition-application-portal-add';
import DefinitionApplicationPortals from './screens/definition-application-portals';
import DefinitionDetails from './screens/definition-details';
import DefinitionRequirements from './screens/definition-requirements';
import Definitions from './screens/definitions';

export const T = '2026-11-01T10:00:00Z';
export const SUB_GROUP: SubGroup = {
  id: 3,
  group: 1,
  group_name: 'Taxi and private hire',
  name: 'Private hire driver',
  code: 'PHD',
  description: '',
  is_published: true,
  definition_count: 1,
  created_at: T,
  updated_at: T,
};
export const DEFINITION: Definition = {
  id: 7,
  sub_group: 3,
  sub_group_name: 'Private hire driver',
  group: 1,
  group_name: 'Taxi and private hire',
  name: 'Private hire driver licence',
  description: 'Three years.',
  duration_years: 3,
  duration_text: '3 years',
  fee_pence: 15000,
  fee_display: '£150.00',
  requirements: [
    { activity_type: 'dbs-enhanced', activity_name: 'Enhanced DBS check', config: {} },
    { activity_type: 'rtw', activity_name: 'Right to work', config: {} },
  ],
  documents: ['Group 2 medical certificate'],
  declarations: ['I have read the policy.'],
  is_published: true,
  portal_count: 1,
  created_at: T,
  updated_at: T,
};
export const PORTAL: Portal = {
  id: 11,
  definition: 7,
  definition_name: 'Private hire driver licence',
  title: 'New private hire drivers',
  introduction: 'Apply here.',
  is_open: true,
  kind: 'new',
  kind_label: 'New application',
  fee_pence: 15000,
  fee_display: '£150.00',
  created_at: T,
  updated_at: T,
};
export const APPLICATION: ApplicationDetail = {
  id: 21,
  reference: 'APP-000021',
  portal: 11,
  portal_title: 'New private hire drivers',
  definition: 7,
  definition_name: 'Private hire driver licence',
  kind: 'renewal',
  kind_label: 'Renewal',
  renews_licence: null,
  applicant: { subject: 40, name: 'Dan Driver', email: 'dan@example.test', dob: '1980-02-03' },
  state: 'in_progress',
  state_label: 'In progress',
  fee_pence: 15000,
  fee_display: '£150.00',
  payment_intent_id: 5,
  case_id: 90,
  checks: [
    {
      kind: 'dbs-enhanced',
      label: 'Enhanced DBS check',
      state: 'ca-complete',
      state_label: 'Complete',
    },
    { kind: 'rtw', label: 'Right to work', state: 'ca-in-progress', state_label: 'In progress' },
  ],
  checks_done: 1,
  checks_total: 2,
  tax_check: {
    needed: 'code',
    code: 'ABC123DEF',
    status: 'not_checked',
    status_label: 'Not checked',
    checked_at: null,
    message: '',
  },
  decision_reason: '',
  info_request: null,
  licence_id: null,
  licence_number: null,
  submitted_at: T,
  decided_at: null,
  register_matches: [
    {
      kind: 'revocation',
      kind_label: 'Revocation',
      subject: 40,
      name: 'Dan Driver',
      dob: '1980-02-03',
      licence_id: 3,
      licence_number: 'PHD/2024/00003',
      application_id: null,
      definition_name: 'Private hire driver licence',
      reason: 'Driving while disqualified.',
      date: '2025-05-01T10:00:00Z',
    },
  ],
  events: [],
};

export const page = <R,>(rows: R[]) => ({
  count: rows.length,
  next: null,
  previous: null,
  results: rows,
});

export const ALL: Permission[] = [
  'lms_definitions.view_definition',
  'lms_definitions.add_definition',
  'lms_definitions.change_definition',
  'lms_licences.view_licence',
  'lms_licences.add_licence',
  'lms_licences.change_licence',
];

/** The definitions' screens at `url`, signed in with `permissions`. */
export function renderAt(url: string, permissions: Permission[] = ALL) {
  setSession(productIn(product({ session_permissions: permissions })));
  const router = createMemoryRouter(
    [
      { path: '/definitions', Component: Definitions },
      { path: '/definitions/add', Component: DefinitionAdd },
      { path: '/definitions/:id', Component: Definition_ },
      { path: '/definitions/:id/details', Component: DefinitionDetails },
      { path: '/definitions/:id/requirements', Component: DefinitionRequirements },
      { path: '/definitions/:id/application-portals', Component: DefinitionApplicationPortals },
      {
        path: '/definitions/:id/application_portals/add',
        Component: DefinitionApplicationPortalAdd,
      },
      {
        path: '/definitions/:id/application_portals/:appId',
        Component: DefinitionApplicationPortal,
      },
    ],
    { initialEntries: [url] },
  );
  renderWithProviders(<RouterProvider router={router} />);
  return router;
}
