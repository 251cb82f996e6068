import { type CasePortalOut, type PortalSection, portalProgress } from '@kestrel/domain';
import { MemoryRouter, Route, Routes } from 'react-router';
import { PATHS } from '../../config/paths';
import { renderWithProviders } from '../../test/render';
import CasePortalPage from './case-portal-page';

/**
 * For tests (of the frame and of any section): a portal payload, and the portal rendered at a
 * URL inside the real frame. Mock fetch (test/fetch-mock.ts) to answer
 * GET /api/s/case-portal/{id}/ with `portalPayload(...)`.
 */
export function portalPayload({
  caseId = 7,
  activityCodes = ['basic-details', 'address-history'],
  last = null,
  submitted = false,
  basicDetails = null,
}: {
  caseId?: number;
  /** Activity type codes of the case (they pick the sections). */
  activityCodes?: string[];
  /** portal_last_completed_section. */
  last?: string | null;
  submitted?: boolean;
  basicDetails?: CasePortalOut['basic_details'];
} = {}): CasePortalOut {
  const progress = portalProgress({ activityCodes, lastCompletedSection: last });
  const { sections, ...rest } = progress;
  return {
    portal: {
      id: caseId,
      customer: { id: 1, name: 'Acme Care' },
      state: submitted ? 'in-progress' : 'awaiting-subject',
      case_activities: [],
      required_consents: [],
      portal_last_completed_section: last,
      sections,
      progress: rest,
      submitted,
    },
    basic_details: basicDetails,
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
  };
}

/** Renders the portal (frame and lazy section) at `/s/case-portal/{caseId}/{section}`. */
export function renderPortal(caseId: number, section?: PortalSection | string) {
  const url = section ? `/s/case-portal/${caseId}/${section}` : `/s/case-portal/${caseId}`;
  return renderWithProviders(
    <MemoryRouter initialEntries={[url]}>
      <Routes>
        <Route path={PATHS['s:case-portal']} element={<CasePortalPage />} />
        <Route path={PATHS['s:case-portal-resume']} element={<CasePortalPage />} />
      </Routes>
    </MemoryRouter>,
  );
}
