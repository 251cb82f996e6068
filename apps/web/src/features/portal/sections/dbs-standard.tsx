import type { PortalSectionProps } from '../section-contract';
import { DbsApplicationSection } from './dbs-application/dbs-application-section';

/** The portal's dbs-standard section: the standard criminal-record application (issue 16). */
export default function DbsStandardSection(props: PortalSectionProps) {
  return <DbsApplicationSection {...props} level="dbs-standard" />;
}
