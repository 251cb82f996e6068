import type { CasePortalOut } from '@kestrel/domain';

/** For the tests of these sections: a portal payload with the given activities. */
export function payload({
  caseId = 7,
  activities = [],
  basicDetails = {},
}: {
  caseId?: number;
  activities?: { id: number; code: string }[];
  basicDetails?: Partial<NonNullable<CasePortalOut['basic_details']>>;
}): CasePortalOut {
  return {
    portal: {
      id: caseId,
      customer: { id: 1, name: 'Acme Care' },
      state: 'awaiting-subject',
      case_activities: activities.map((a) => ({
        id: a.id,
        activity_type: { code: a.code, code_display: a.code },
        state: 'ca-awaiting-subject',
        state_display: 'Awaiting you',
        config: {},
      })),
      required_consents: [],
      portal_last_completed_section: null,
      sections: ['welcome', 'review', 'done'],
      progress: { completed: 0, total: 3, percent: 0, next: 'welcome' },
      submitted: false,
    },
    basic_details: {
      case: caseId,
      gender: 'female',
      title: 'Ms',
      forename: 'Ada',
      forename_dbs: '',
      middlename: '',
      middlename_dbs: '',
      surname: 'Byron',
      surname_dbs: '',
      email: 'ada@example.test',
      email_dbs: '',
      dob: '1985-12-10',
      phone_number: '+447911123456',
      nin: '',
      nationality: 'GBR',
      online_idv: false,
      locked_fields: [],
      ...basicDetails,
    },
    documentation: { passport: null, driving_licence: null },
    online_idv: {
      session: null,
      ibv_verified: false,
      ibv_session: null,
      manual_idv_approved: false,
      id_profile: null,
      verified: false,
    },
    subscriptions: [],
  } as CasePortalOut;
}
