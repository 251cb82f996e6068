import { Button } from '@mantine/core';
import { Link } from 'react-router';
import type { SubjectCase } from '../../api/subject-cases';
import { href } from '../../config/paths';

/**
 * The one next step of a case, into the case portal at its section (or, for a top-up, to the
 * payment portal). Full width on a phone, and its label wraps rather than pushing the page
 * sideways.
 */
export function NextStepButton({
  item,
  step,
}: {
  item: Pick<SubjectCase, 'id'>;
  step: NonNullable<SubjectCase['next_step']>;
}) {
  return (
    <Button
      component={Link}
      size="lg"
      to={
        step.payment_intent !== null
          ? href('payment-portal', { id: step.payment_intent })
          : href('s:case-portal', { id: item.id, section: step.section })
      }
      data-testid="next-step"
      w={{ base: '100%', xs: 'auto' }}
      h="auto"
      mih={50}
      py={10}
      styles={{ label: { whiteSpace: 'normal', textAlign: 'center', lineHeight: 1.3 } }}
    >
      {step.label}
    </Button>
  );
}
