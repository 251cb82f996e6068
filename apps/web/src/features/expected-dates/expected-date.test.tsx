import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ExpectedDate } from './index';

const activity = (state: string) => ({
  activity_type: 'dbs-basic',
  state,
  created_at: '2026-03-02T09:00:00Z',
  result_data: {},
});
const show = (state: string, today: string) =>
  render(
    <MantineProvider>
      <ExpectedDate activity={activity(state)} today={today} />
    </MantineProvider>,
  );

describe('ExpectedDate', () => {
  it('shows the expected date of an open check, and says when it is overdue', () => {
    show('ca-in-progress', '2026-03-10');
    expect(screen.getByTestId('expected-date').textContent).toMatch(/^Expected by /);
    show('ca-in-progress', '2026-03-20');
    expect(screen.getAllByTestId('expected-date')[1]?.textContent).toMatch(/^Overdue: expected by/);
  });

  it('shows nothing while the check waits for the subject', () => {
    const { container } = show('ca-awaiting-subject', '2026-03-10');
    expect(container.querySelector('[data-testid="expected-date"]')).toBeNull();
  });
});
