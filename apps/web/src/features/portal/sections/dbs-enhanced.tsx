import type { PortalSectionProps } from '../section-contract';
import { DbsApplicationSection } from './dbs-application/dbs-application-section';

/** The portal's dbs-enhanced section: the enhanced criminal-record application (issue 16). */
export default function DbsEnhancedSection(props: PortalSectionProps) {
  return <DbsApplicationSection {...props} level="dbs-enhanced" />;
}
