import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../test/fetch-mock';
import { renderWithProviders } from '../../test/render';
import { KnowledgeTestForm } from './knowledge-test-form';
import { KnowledgeTestPanel } from './knowledge-test-panel';
import type { Audience, PanelActivity } from './panel-kit';
import { opsFormFor, resultPanelFor } from './registry';

const AUDIENCES: Audience[] = ['customer', 'subject', 'ops'];

const complete = {
  test_url: 'https://knowledge-test.example/take/KT-P-1',
  invited_at: '2026-03-02T09:00:00.000Z',
  passed: true,
  percentage: 85,
  points_scored: 34,
  points_available: 40,
  completed_at: '2026-03-03T09:00:00.000Z',
  duration_seconds: 1420,
  method: 'online',
  intro: {
    first_name: 'Ada',
    last_name: 'Lovelace',
    email: 'ada@example.test',
    extra_info: 'Private hire driver',
    extra_info2: 'New licence application',
  },
  categories: [
    { name: 'Highway Code', percentage: 90, points_scored: 9, points_available: 10 },
    { name: 'Local knowledge', percentage: 75, points_scored: 9, points_available: 12 },
  ],
  results_url: 'https://knowledge-test.example/results/KT-P-1',
};

const activity = (result_data: Record<string, unknown>, state = 'ca-complete'): PanelActivity => ({
  id: 41,
  state,
  activity_type: 'knowledge-test',
  result_data,
});

afterEach(() => vi.unstubAllGlobals());

describe('the knowledge test panel', () => {
  it.each(AUDIENCES)('shows a complete result to %s', (audience) => {
    renderWithProviders(<KnowledgeTestPanel activity={activity(complete)} audience={audience} />);
    const panel = screen.getByTestId('knowledge-test-panel');
    expect(within(panel).getByText('Pass')).toBeInTheDocument();
    expect(within(panel).getByText('85%')).toBeInTheDocument();
    expect(within(panel).getByText('23 min 40 s')).toBeInTheDocument();
    expect(within(panel).getByText('3rd Mar 2026')).toBeInTheDocument();
    expect(within(panel).getByText('34 / 40')).toBeInTheDocument();
    const intro = screen.getByTestId('knowledge-test-intro');
    for (const text of [
      'Ada',
      'Lovelace',
      'ada@example.test',
      'Private hire driver',
      'New licence application',
    ]) {
      expect(within(intro).getByText(text)).toBeInTheDocument();
    }
    const table = screen.getByRole('table', { name: 'Knowledge test categories' });
    expect(within(table).getByText('Highway Code')).toBeInTheDocument();
    expect(within(table).getByText('9 / 12')).toBeInTheDocument();
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Name', 'Percentage', 'Points']);
    // on a phone narrower than the table it scrolls in a region the keyboard reaches
    const region = screen.getByRole('region', { name: 'Knowledge test categories' });
    expect(region).toHaveAttribute('tabindex', '0');
    expect(region).toContainElement(table);
    const link = screen.queryByRole('link', { name: 'Full results' });
    if (audience === 'subject') expect(link).toBeNull();
    else expect(link).toHaveAttribute('href', complete.results_url);
    expect(screen.queryByText('This knowledge test has not yet been completed')).toBeNull();
  });

  it.each(AUDIENCES)('shows a partial (paper, failed) result to %s', (audience) => {
    renderWithProviders(
      <KnowledgeTestPanel
        activity={activity({
          passed: false,
          method: 'paper',
          recorded_by: 'Olivia Ops',
          completed_at: '2026-03-04T10:00:00Z',
        })}
        audience={audience}
      />,
    );
    expect(screen.getByText('Fail')).toBeInTheDocument();
    expect(screen.getByText('Taken on paper')).toBeInTheDocument();
    expect(screen.queryByText('Olivia Ops') === null).toBe(audience === 'subject');
    expect(screen.queryByTestId('knowledge-test-intro')).toBeNull();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it.each(AUDIENCES)('says the test is not completed to %s (missing result)', (audience) => {
    renderWithProviders(
      <KnowledgeTestPanel
        activity={activity(
          { test_url: complete.test_url, invited_at: complete.invited_at },
          'ca-in-progress',
        )}
        audience={audience}
      />,
    );
    expect(screen.getByText('This knowledge test has not yet been completed')).toBeInTheDocument();
    const take = screen.queryByRole('link', { name: 'Take the knowledge test' });
    if (audience === 'subject') expect(take).toHaveAttribute('href', complete.test_url);
    else expect(take).toBeNull();
  });

  it('says so with no result data at all', () => {
    renderWithProviders(
      <KnowledgeTestPanel activity={activity({}, 'ca-awaiting-subject')} audience="customer" />,
    );
    expect(screen.getByText('This knowledge test has not yet been completed')).toBeInTheDocument();
  });

  it('is the registry entry for every audience, with the ops form', () => {
    for (const a of AUDIENCES) expect(resultPanelFor('knowledge-test', a)).toBe(KnowledgeTestPanel);
    expect(opsFormFor('knowledge-test')).toBe(KnowledgeTestForm);
  });
});

describe("operations' pass/fail radio", () => {
  it('asks for a result, then records it', async () => {
    const calls = mockFetch(() => ({
      status: 200,
      body: { id: 41, state: 'ca-complete', result_data: {} },
    }));
    renderWithProviders(<KnowledgeTestForm activity={activity({}, 'ca-in-progress')} />);
    fireEvent.click(screen.getByRole('button', { name: 'Save result' }));
    expect(await screen.findAllByText('Required')).not.toHaveLength(0);
    expect(calls).toHaveLength(0);
    fireEvent.click(screen.getByRole('radio', { name: 'Fail' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save result' }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]).toMatchObject({
      method: 'POST',
      url: '/api/ops/case-activities/41/knowledge-test-result/',
      body: { result: 'fail' },
    });
  });

  it('is not shown once the test is complete', () => {
    renderWithProviders(<KnowledgeTestForm activity={activity(complete)} />);
    expect(screen.queryByTestId('knowledge-test-form')).toBeNull();
  });
});
