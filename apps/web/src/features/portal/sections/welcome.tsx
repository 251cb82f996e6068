import { PORTAL_SECTION_LABELS, portalSteps } from '@kestrel/domain';
import { List, Stack, Text } from '@mantine/core';
import type { PortalSectionProps } from '../section-contract';
import { SectionShell } from '../section-shell';

/** Welcome: who asked for the checks, what the person will be asked for, and how long it takes. */
export default function WelcomeSection({ portal }: PortalSectionProps) {
  const { customer, sections } = portal.portal;
  // the steps the person's case pages count ('3 of 11 steps done')
  const steps = portalSteps(sections);
  return (
    <SectionShell
      title="Welcome"
      intro={`${customer.name} has asked us to carry out some checks. This takes about 10 to 15 minutes.`}
      continueLabel="Start"
    >
      <Stack gap="sm">
        <Text>You will be asked for:</Text>
        <List spacing={4}>
          {steps.map((s) => (
            <List.Item key={s}>{PORTAL_SECTION_LABELS[s]}</List.Item>
          ))}
        </List>
        <Text>
          Your answers are saved as you go. You can stop at any time and carry on later, on this
          device or another one.
        </Text>
        <Text>Nothing is sent until you check your answers and submit them at the end.</Text>
      </Stack>
    </SectionShell>
  );
}
