import { EMPLOYMENT_SECTORS, PURPOSE_OPTIONS, WORKFORCE_OPTIONS } from '@kestrel/domain';
import { Accordion, Stack, Text } from '@mantine/core';
import { Facts, yesNo } from './panel-kit';

const labelOf = (options: readonly { value: string; label: string }[], value: unknown) =>
  typeof value === 'string' ? (options.find((o) => o.value === value)?.label ?? value) : '';
const str = (v: unknown) => (typeof v === 'string' ? v : '');
const bool = (v: unknown) => (typeof v === 'boolean' ? v : null);

/** Workforce as the spec shows it: 'CA Child and Adult'. */
export function workforceText(value: unknown): string {
  const o = WORKFORCE_OPTIONS.find((w) => w.value === value);
  return o ? `${o.value} ${o.label}` : '';
}

/** Shown for the employer name when the segment gives it: spec point 2's words, as written. */
export const SEGMENT_EMPLOYER_NAME = 'segment employer name';

/** The employer name, or 'segment employer name' when the segment gives it. */
export function employerText(config: Record<string, unknown>): string {
  return config.employer_name_source === 'segment'
    ? SEGMENT_EMPLOYER_NAME
    : str(config.employer_name);
}

/** The purpose, or the other purpose typed in. */
export function purposeText(config: Record<string, unknown>): string {
  return config.purpose === 'other'
    ? str(config.other_purpose)
    : labelOf(PURPOSE_OPTIONS, config.purpose);
}

/**
 * The activity configuration accordion (spec point 2): purpose, sector, employer, position,
 * certificate delivery with the paper certificate's address block, workforce and the flags.
 */
export function ActivityConfigAccordion({ config }: { config: Record<string, unknown> }) {
  const paper = config.paper_cert === true;
  // keyed by field: two lines may read the same (e.g. name and town)
  const address = [
    'paper_cert_name',
    'paper_cert_department',
    'paper_cert_line_one',
    'paper_cert_line_two',
    'paper_cert_town',
    'paper_cert_postcode',
  ]
    .map((field) => [field, str(config[field])] as const)
    .filter(([, line]) => line);
  return (
    <Accordion variant="separated" chevronPosition="left" data-testid="activity-config">
      <Accordion.Item value="config">
        <Accordion.Control>Activity configuration</Accordion.Control>
        <Accordion.Panel>
          <Stack gap="sm">
            <Facts
              items={[
                ['Purpose', purposeText(config)],
                ['Employment sector', labelOf(EMPLOYMENT_SECTORS, config.employment_sector)],
                ['Employer name', employerText(config)],
                ['Position', str(config.position)],
                ['Online certificate email', str(config.online_cert_email)],
                ['Paper certificate', yesNo(bool(config.paper_cert))],
                ['Workforce', workforceText(config.workforce)],
                ['Volunteer', yesNo(bool(config.volunteer))],
                ['Working with vulnerable adults', yesNo(bool(config.adult_barred_list))],
                ['Working with children', yesNo(bool(config.child_barred_list))],
                ['Working at home address', yesNo(bool(config.working_at_home_address))],
              ]}
            />
            {paper && address.length > 0 && (
              <Stack gap={0} data-testid="paper-cert-address">
                <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
                  Paper certificate address
                </Text>
                {address.map(([field, line]) => (
                  <Text key={field}>{line}</Text>
                ))}
              </Stack>
            )}
          </Stack>
        </Accordion.Panel>
      </Accordion.Item>
    </Accordion>
  );
}
