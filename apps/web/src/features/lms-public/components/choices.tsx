import type { PublicApplicationPortalOut } from '@kestrel/domain';
import { Anchor, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import classes from './lms-public.module.css';

export interface Choice {
  key: string | number;
  to: string;
  label: string;
  description?: string;
}

/** A list of links to choose from, each with what it holds (GOV.UK's browse pages). */
export function ChoiceList({
  choices,
  testId,
  empty,
}: {
  choices: readonly Choice[];
  testId: string;
  /** Said when there is nothing to choose. */
  empty: ReactNode;
}) {
  if (choices.length === 0) {
    return (
      <Text data-testid={`${testId}-empty`} c="dimmed">
        {empty}
      </Text>
    );
  }
  return (
    <ul className={classes.choices} data-testid={testId}>
      {choices.map((c) => (
        <li key={c.key}>
          <Anchor component={Link} to={c.to} className={classes.choiceLink}>
            {c.label}
          </Anchor>
          {c.description ? (
            <Text size="sm" c="dimmed" className={classes.prose}>
              {c.description}
            </Text>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

/** Label and value pairs (GOV.UK's summary list). */
export function SummaryList({
  rows,
  testId,
  inCard = false,
}: {
  rows: readonly { label: string; value: ReactNode }[];
  testId?: string;
  /** Inside a bordered card: no rule under the last row. */
  inCard?: boolean;
}) {
  return (
    <dl className={`${classes.summary} ${inCard ? classes.inCard : ''}`} data-testid={testId}>
      {rows.map((r) => (
        <div key={r.label}>
          <dt>{r.label}</dt>
          <dd>{r.value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** What a portal is, in a few rows: the licence, new or renewal, how long, the fee. */
export function portalFacts(p: PublicApplicationPortalOut) {
  return [
    { label: 'Licence', value: p.definition_name },
    { label: 'Application', value: p.kind_label },
    { label: 'Licence lasts', value: p.duration_text },
    { label: 'Fee', value: p.fee_pence > 0 ? p.fee_display : 'No fee' },
  ];
}
