import {
  certificateStatusMeaning,
  readResultData,
  UPDATE_SERVICE_STATUS_LABELS,
  updateServiceStatus,
} from '@kestrel/domain';
import { type Audience, day as dayOf, Facts, type PanelActivity, PanelFrame } from './panel-kit';

/** Update service (spec point 2): status, forename, surname, print date and result. */
export function UpdateServicePanel({ activity }: { activity: PanelActivity; audience: Audience }) {
  const data = readResultData('dbs-update', activity.result_data);
  const status = data.certificate_status;
  return (
    <PanelFrame testId="update-service-panel">
      <Facts
        items={[
          ['Status', UPDATE_SERVICE_STATUS_LABELS[updateServiceStatus(status)]],
          ['Forename', data.forename],
          ['Surname', data.surname],
          ['Print date', data.print_date ? dayOf(data.print_date) : ''],
          ['Result', status ? certificateStatusMeaning(status) : ''],
        ]}
        wide={['Result']}
      />
    </PanelFrame>
  );
}
