import type {
  PublicApplicationPortalOut,
  SubjectApplicationOut,
  SubjectApplicationPortalOut,
} from '@kestrel/domain';

// Answers of the public and subject licensing API (contracts lms.ts, lms-applications.ts).

export const page = <T>(results: T[]) => ({
  count: results.length,
  next: null,
  previous: null,
  results,
});

export const council = { id: 7, name: 'Northgate Council' };
export const group = {
  id: 3,
  customer: 7,
  name: 'Taxi and private hire',
  description: 'Drivers, operators and vehicles.',
};
export const subGroup = {
  id: 5,
  customer: 7,
  group: 3,
  name: 'Hackney carriage driver',
  description: 'Drive a hackney carriage (a taxi) in Northgate.',
};

export const portal = (
  over: Partial<PublicApplicationPortalOut> = {},
): PublicApplicationPortalOut => ({
  id: 9,
  customer: 7,
  customer_name: 'Northgate Council',
  group: 3,
  sub_group: 5,
  definition: 4,
  definition_name: 'Hackney carriage driver licence (3 years)',
  title: 'Apply for a hackney carriage driver licence',
  introduction: 'For new drivers.',
  kind: 'new',
  kind_label: 'New application',
  duration_text: '3 years',
  fee_pence: 27_500,
  fee_display: '£275.00',
  requirements: ['Enhanced DBS check', 'Driver data'],
  documents: ['Medical certificate (Group 2)'],
  declarations: ['I have read the council’s conditions.'],
  ...over,
});

export const subjectPortal = (
  over: Partial<SubjectApplicationPortalOut> = {},
): SubjectApplicationPortalOut => ({
  ...portal(),
  tax_check: 'confirm',
  my_application: null,
  ...over,
});

export const application = (over: Partial<SubjectApplicationOut> = {}): SubjectApplicationOut => ({
  id: 21,
  reference: 'APP-000021',
  portal: 9,
  portal_title: 'Apply for a hackney carriage driver licence',
  definition_name: 'Hackney carriage driver licence (3 years)',
  customer: 7,
  customer_name: 'Northgate Council',
  kind: 'new',
  kind_label: 'New application',
  state: 'in_progress',
  state_label: 'In progress',
  fee_pence: 27_500,
  fee_display: '£275.00',
  next_url: '/s/case-portal/40',
  case_id: 40,
  licence_number: null,
  renew_url: null,
  submitted_at: '2026-11-20T09:00:00.000Z',
  info_request: null,
  ...over,
});
