import { Stack, Text, Title } from '@mantine/core';
import type { CaseDataAudience } from '../../api/case-data';
import { useRights } from '../../lib/rights';
import { AddressHistorySection } from './address-history-section';
import { BasicDetailsSection } from './basic-details-section';
import { BirthDetailsSection } from './birth-details-section';
import { DrivingLicenceSection } from './driving-licence-section';
import { OtherNamesSection } from './other-names-section';
import { PassportSection } from './passport-section';

/**
 * The case data editing screen (spec point 2): six sections, each loaded and saved on its own.
 * Customer staff need `cases.change_case` to write (read-only otherwise); operations use the
 * ops API. Loaded lazily by the case detail pages.
 */
export default function CaseDataPanel({
  caseId,
  audience = 'customer',
}: {
  caseId: number | string;
  audience?: CaseDataAudience;
}) {
  const { can } = useRights();
  const readOnly = audience === 'customer' && !can('cases.change_case');
  const props = { caseId, audience, readOnly };
  return (
    <Stack gap="md" data-testid="case-data">
      <Stack gap={4}>
        <Title order={2} size="h3" id="case-data">
          Case data
        </Title>
        <Text size="sm" c="dimmed">
          The details every check is made from. Each section is saved on its own.
        </Text>
      </Stack>
      <BasicDetailsSection {...props} />
      <BirthDetailsSection {...props} />
      <OtherNamesSection {...props} />
      <AddressHistorySection {...props} />
      <PassportSection {...props} />
      <DrivingLicenceSection {...props} />
    </Stack>
  );
}
