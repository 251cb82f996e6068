import type { PortalSection } from '@kestrel/domain';
import { createContext, useContext } from 'react';
import type { PortalSectionProps } from './section-contract';

/**
 * What the frame shares with `SectionShell` (and any section that needs to move on by itself):
 * the section's props, where Back goes, and a way to open another section.
 */
export interface PortalFrame extends PortalSectionProps {
  /** The section before this one in the case's portal (null on the first). */
  previous: PortalSection | null;
  /** The section after this one (null on the last). */
  following: PortalSection | null;
  /** Opens a section of this case's portal. */
  goTo: (section: PortalSection) => void;
  /** The link of a section of this case's portal. */
  linkTo: (section: PortalSection) => string;
}

export const PortalFrameContext = createContext<PortalFrame | null>(null);

/** The frame around the current section; only inside the case portal. */
export function usePortalFrame(): PortalFrame {
  const frame = useContext(PortalFrameContext);
  if (!frame) throw new Error('usePortalFrame is used outside the case portal frame');
  return frame;
}
