import type { CasePortalOut, PortalSection } from '@kestrel/domain';
import type { ComponentType } from 'react';
import { MemoryRouter } from 'react-router';
import { vi } from 'vitest';
import { renderWithProviders } from '../../../../test/render';
import { type PortalFrame, PortalFrameContext } from '../../frame-context';
import type { PortalSectionProps } from '../../section-contract';

export { payload } from './test-kit-data';

/** A section rendered inside a stand-in of the portal frame (its `complete` a spy). */
export function renderSection(
  Section: ComponentType<PortalSectionProps>,
  section: PortalSection,
  portal: CasePortalOut,
  { readOnly = false }: { readOnly?: boolean } = {},
) {
  const complete = vi.fn(async () => {});
  const goTo = vi.fn();
  const props: PortalSectionProps = {
    caseId: portal.portal.id,
    section,
    portal,
    refresh: async () => {},
    readOnly,
    complete,
  };
  const frame: PortalFrame = {
    ...props,
    previous: 'welcome',
    following: 'review',
    goTo,
    linkTo: (s) => `/s/case-portal/${portal.portal.id}/${s}`,
  };
  const view = renderWithProviders(
    <MemoryRouter>
      <PortalFrameContext.Provider value={frame}>
        <Section {...props} />
      </PortalFrameContext.Provider>
    </MemoryRouter>,
  );
  return { ...view, complete, goTo };
}
