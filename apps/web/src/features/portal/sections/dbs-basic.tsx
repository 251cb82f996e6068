import type { PortalSectionProps } from '../section-contract';
import { DbsApplicationSection } from './dbs-application/dbs-application-section';

/** The portal's dbs-basic section: the basic criminal-record application (issue 16). */
export default function DbsBasicSection(props: PortalSectionProps) {
  return <DbsApplicationSection {...props} level="dbs-basic" />;
}
