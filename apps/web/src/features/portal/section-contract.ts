import type { CasePortalOut, PortalSection } from '@kestrel/domain';
import type { ComponentType } from 'react';

/**
 * What the case portal frame (`/s/case-portal/:id/:section`) gives each section of
 * `sections/<section>.tsx` (ARCHITECTURE: one file per portal section, loaded lazily).
 *
 * A section loads and saves its own data through the subject API as the person goes (nothing
 * typed is lost), shows its own errors (summary at the top, linked to the fields), and calls
 * `complete()` when the person presses its Continue button with everything valid and saved: the
 * frame then records the progress (PATCH portal_last_completed_section) and opens the next
 * section. `complete('address-history/2')` records a part-done step instead, without moving on.
 */
export interface PortalSectionProps {
  caseId: number;
  section: PortalSection;
  /** The portal payload (point 3), as last loaded; `refresh()` reloads it. */
  portal: CasePortalOut;
  refresh: () => Promise<void>;
  /** After submission the portal is read-only: show the data, no inputs and no Continue. */
  readOnly: boolean;
  complete: (step?: string) => Promise<void>;
}

export type PortalSectionModule = { default: ComponentType<PortalSectionProps> };
