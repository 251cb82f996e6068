import { TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { request } from '../../api/client';
import { mockFetch } from '../../test/fetch-mock';
import { renderWithProviders } from '../../test/render';
import { AdultFirstForm } from './adult-first-form';
import { NotesAccordion } from './notes-accordion';
import {
  OpsFormFrame,
  postActivityAction,
  serverFieldErrors,
  summaryOf,
  useOpsForm,
} from './ops-form';
import { ProviderConfigForm } from './provider-config-form';

const inRouter = (ui: React.ReactElement) =>
  renderWithProviders(
    <MemoryRouter initialEntries={['/cases/14']}>
      <Routes>
        <Route path="/cases/14" element={ui} />
        <Route path="/ops/outstanding-activities" element={<p>Outstanding list</p>} />
      </Routes>
    </MemoryRouter>,
  );

describe('notes accordion (operations)', () => {
  it('a 4-row text area; Save disabled over 400 with "Max length 400"; saves and shows the history', async () => {
    const calls = mockFetch((call) =>
      call.method === 'POST'
        ? { status: 201, body: { id: 1 } }
        : {
            status: 200,
            body: {
              count: 1,
              next: null,
              previous: null,
              results: [
                {
                  id: 1,
                  actor_first_name: 'Olive',
                  actor_last_name: 'Ops',
                  timestamp: '2026-03-04T10:15:00Z',
                  description: 'Called the referee.',
                },
              ],
            },
          },
    );
    inRouter(<NotesAccordion activityId={7} notes="" />);
    fireEvent.click(screen.getByRole('button', { name: 'Notes' }));
    const area = await screen.findByRole('textbox', { name: 'Notes' });
    expect(area).toHaveAttribute('rows', '4');
    const save = screen.getByRole('button', { name: 'Save' });
    fireEvent.change(area, { target: { value: 'x'.repeat(401) } });
    expect(save).toBeDisabled();
    expect(screen.getByText('Max length 400')).toBeInTheDocument();
    fireEvent.change(area, { target: { value: 'x'.repeat(400) } });
    expect(save).toBeEnabled();
    expect(screen.queryByText('Max length 400')).toBeNull();
    fireEvent.change(area, { target: { value: 'Called the referee.' } });
    fireEvent.click(save);
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')).toMatchObject({
      url: '/api/ops/case-activities/7/notes/',
      body: { notes: 'Called the referee.' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'History' }));
    const history = await screen.findByRole('dialog', { name: 'Notes history' });
    expect(await within(history).findByText('Called the referee.')).toBeInTheDocument();
    expect(within(history).getByText(/Olive Ops · 4th Mar 2026 10:15/)).toBeInTheDocument();
    expect(
      calls.some(
        (c) => c.method === 'GET' && c.url.startsWith('/api/ops/case-activities/7/notes/'),
      ),
    ).toBe(true);
  });

  it('the history dialog is closed until asked for; an empty history says so', async () => {
    const calls = mockFetch(() => ({
      status: 200,
      body: { count: 0, next: null, previous: null, results: [] },
    }));
    inRouter(<NotesAccordion activityId={8} notes="Seen" />);
    fireEvent.click(screen.getByRole('button', { name: 'Notes' }));
    expect(await screen.findByRole('textbox', { name: 'Notes' })).toHaveValue('Seen');
    expect(screen.queryByRole('dialog', { name: 'Notes history' })).toBeNull();
    expect(calls).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'History' }));
    const history = await screen.findByRole('dialog', { name: 'Notes history' });
    expect(await within(history).findByText('No notes have been saved yet.')).toBeInTheDocument();
  });

  it('a failed history read says so in the dialog', async () => {
    mockFetch(() => ({ status: 500, body: {} }));
    inRouter(<NotesAccordion activityId={9} notes="" />);
    fireEvent.click(screen.getByRole('button', { name: 'Notes' }));
    fireEvent.click(await screen.findByRole('button', { name: 'History' }));
    const history = await screen.findByRole('dialog', { name: 'Notes history' });
    expect(await within(history).findByText('Error getting list of notes')).toBeInTheDocument();
  });
});

describe('DBS enhanced provider configuration form', () => {
  it('requires the nine fields and valid emails, summarised at the top, then saves', async () => {
    const calls = mockFetch(() => ({ status: 200, body: { id: 7, processing_data: {} } }));
    inRouter(<ProviderConfigForm activityId={7} saved={undefined} />);
    fireEvent.click(screen.getByRole('button', { name: 'DBS enhanced provider configuration' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Save configuration' }));
    const summary = await screen.findByTestId('error-summary');
    expect(within(summary).getByText('There is a problem')).toBeInTheDocument();
    expect(within(summary).getAllByRole('link')).toHaveLength(9);
    expect(within(summary).getByRole('link', { name: 'Manager email: Required' })).toHaveAttribute(
      'href',
      '#provider-7-manager_email',
    );
    expect(calls).toHaveLength(0);
    const values: Record<string, string> = {
      Forename: 'Pat',
      Surname: 'Lee',
      Email: 'pat@acme',
      'Manager forename': 'Max',
      'Manager surname': 'Doe',
      'Manager email': 'max@acme.test',
      Position: 'HR lead',
      'ID verifier username': 'verifier1',
      'Email group': 'dbs@acme.test',
    };
    for (const [label, value] of Object.entries(values)) {
      fireEvent.change(screen.getByRole('textbox', { name: label }), { target: { value } });
    }
    fireEvent.click(screen.getByRole('button', { name: 'Save configuration' }));
    expect(
      await within(screen.getByTestId('error-summary')).findByRole('link', {
        name: 'Email: Invalid email',
      }),
    ).toBeInTheDocument();
    fireEvent.change(screen.getByRole('textbox', { name: 'Email' }), {
      target: { value: 'pat@acme.test' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Save configuration' }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]).toMatchObject({
      method: 'PATCH',
      url: '/api/ops/case-activities/7/processing-data/',
      body: { provider_configuration: { email: 'pat@acme.test', email_group: 'dbs@acme.test' } },
    });
    expect(screen.queryByTestId('error-summary')).toBeNull();
  });
});

describe('adult-first staged form', () => {
  const stage = (s: 'pending' | 'requested') => ({
    activity: 9,
    case: 14,
    activity_type: 'adult-first',
    stage: s,
    next_stage: s === 'pending' ? 'requested' : 'result-received',
    state: 'ca-awaiting-ops',
    result_data: { stage: s },
    dbs_case_options: [
      { id: 14, label: 'Case #14 (2026-01-01)' },
      { id: 15, label: 'Case #15 (2026-02-01)' },
    ],
  });

  it('pending: the DBS case and the reference are required', async () => {
    const calls = mockFetch((call) =>
      call.method === 'GET'
        ? { status: 200, body: stage('pending') }
        : { status: 200, body: stage('requested') },
    );
    inRouter(<AdultFirstForm activityId={9} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Save request' }));
    const summary = await screen.findByTestId('error-summary');
    expect(within(summary).getByRole('link', { name: 'DBS case: Required' })).toBeInTheDocument();
    expect(within(summary).getByRole('link', { name: 'Reference: Required' })).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
    fireEvent.change(screen.getByRole('textbox', { name: 'Reference' }), {
      target: { value: 'AF-1' },
    });
    fireEvent.change(screen.getByRole('combobox', { name: 'DBS case' }), {
      target: { value: '15' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Save request' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1));
    expect(calls.find((c) => c.method === 'POST')).toMatchObject({
      url: '/api/ops/case-activities/9/progress/',
      body: { stage: 'pending', data: { dbs_case: 15, reference: 'AF-1' } },
    });
  });

  it('requested: a result is required; saving it sends ops to the outstanding list', async () => {
    const calls = mockFetch((call) =>
      call.method === 'GET'
        ? { status: 200, body: stage('requested') }
        : {
            status: 200,
            body: { ...stage('requested'), stage: 'result-received', next_stage: null },
          },
    );
    inRouter(<AdultFirstForm activityId={9} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Save result' }));
    expect(
      await within(await screen.findByTestId('error-summary')).findByRole('link', {
        name: 'Result: Required',
      }),
    ).toBeInTheDocument();
    for (const label of ['No Match', 'Wait for Certificate', 'Certificate Already Issued']) {
      expect(screen.getByLabelText(label)).toBeInTheDocument();
    }
    fireEvent.click(screen.getByLabelText('No Match'));
    fireEvent.click(screen.getByRole('button', { name: 'Save result' }));
    expect(await screen.findByText('Outstanding list')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')).toMatchObject({
      body: { stage: 'requested', data: { result: 'no-match' } },
    });
  });
});

const valid = (name: string) => ({ success: true as const, data: { name } });
const invalid = (messages: string[]) => ({
  success: false as const,
  error: { issues: messages.map((message) => ({ message })) },
});

/** A form of the kind's shape: one required field, posted to the activity; the case read beside it. */
function ProbeForm({ oneField }: { oneField: boolean }) {
  const [name, setName] = useState('');
  const form = useOpsForm();
  const caseRead = useQuery({
    queryKey: ['/api/ops/cases/', 3],
    queryFn: async () => {
      const r = await request<{ reads: number }>('GET', '/api/ops/cases/3/');
      return r.ok ? r.data.reads : -1;
    },
  });
  const submit = async () => {
    if (oneField) {
      // a one-field form: its check's first message, or the fallback, on the field
      const check = name.length > 3 ? invalid(name === 'Adam' ? [] : ['Too long']) : valid(name);
      await form.submitField('name', check, 'Invalid name', (data) =>
        postActivityAction(5, 'probe', data),
      );
      return;
    }
    if (!name) {
      form.refuse({ name: 'Required' });
      return;
    }
    await form.save(
      () => postActivityAction(5, 'probe', { name }),
      (body) => serverFieldErrors(body, /^data\./),
    );
  };
  return (
    <OpsFormFrame
      titleId="probe-title"
      title="Probe form"
      testId="probe-form"
      summary={summaryOf(form.errors, (f) => `probe-${f}`, { name: 'Name' })}
      form={form}
      submitLabel="Save probe"
      onSubmit={submit}
    >
      <p>Case read {caseRead.data ?? 0} times</p>
      <TextInput
        id="probe-name"
        label="Name"
        value={name}
        onChange={(e) => setName(e.currentTarget.value)}
        error={form.errors.name}
      />
    </OpsFormFrame>
  );
}

describe('the shared operations form (useOpsForm and OpsFormFrame)', () => {
  it("refuses without posting, shows the server's field errors with the error toast, then saves, says so and refreshes the case", async () => {
    let reads = 0;
    let posts = 0;
    const calls = mockFetch((call) => {
      if (call.method === 'GET') return { status: 200, body: { reads: ++reads } };
      posts += 1;
      return posts === 1
        ? { status: 400, body: { 'data.name': ['Name taken'], other: ['Ignored here'] } }
        : { status: 200, body: { state: 'ca-complete' } };
    });
    renderWithProviders(<ProbeForm oneField={false} />);
    const form = screen.getByRole('form', { name: 'Probe form' });
    expect(await screen.findByText('Case read 1 times')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Save probe' }));
    const summary = await screen.findByTestId('error-summary');
    expect(within(summary).getByRole('link', { name: 'Name: Required' })).toHaveAttribute(
      'href',
      '#probe-name',
    );
    await waitFor(() => expect(summary).toHaveFocus());
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);

    fireEvent.change(screen.getByRole('textbox', { name: 'Name' }), { target: { value: 'Ada' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save probe' }));
    expect(await screen.findByText('Error updating case activity')).toBeInTheDocument();
    const refused = screen.getByTestId('error-summary');
    expect(within(refused).getByRole('link', { name: 'Name: Name taken' })).toBeInTheDocument();
    expect(within(refused).getByRole('link', { name: 'other: Ignored here' })).toBeInTheDocument();
    expect(screen.getByText('Case read 1 times')).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Save probe' }));
    expect(await screen.findByText('Successfully updated case activity')).toBeInTheDocument();
    expect(screen.queryByTestId('error-summary')).toBeNull();
    expect(await screen.findByText('Case read 2 times')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toMatchObject([
      { url: '/api/ops/case-activities/5/probe/', body: { name: 'Ada' } },
      { url: '/api/ops/case-activities/5/probe/', body: { name: 'Ada' } },
    ]);
    expect(form).toHaveAttribute('novalidate');
  });

  it("a one-field form (submitField): its check's message or the fallback without posting; every server message on its field, or 'An error has occurred'", async () => {
    let posts = 0;
    const calls = mockFetch((call) => {
      if (call.method === 'GET') return { status: 200, body: { reads: 1 } };
      posts += 1;
      return posts === 1
        ? { status: 400, body: { email: ['Invalid email'], non_field_errors: ['Not now'] } }
        : { status: 409, body: { detail: 'Conflict' } };
    });
    renderWithProviders(<ProbeForm oneField />);
    const name = screen.getByRole('textbox', { name: 'Name' });
    fireEvent.change(name, { target: { value: 'Adeline' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save probe' }));
    expect(
      await within(await screen.findByTestId('error-summary')).findByRole('link', {
        name: 'Name: Too long',
      }),
    ).toBeInTheDocument();
    fireEvent.change(name, { target: { value: 'Adam' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save probe' }));
    expect(
      await within(screen.getByTestId('error-summary')).findByRole('link', {
        name: 'Name: Invalid name',
      }),
    ).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
    fireEvent.change(name, { target: { value: 'Ada' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save probe' }));
    const summary = screen.getByTestId('error-summary');
    expect(
      await within(summary).findByRole('link', { name: 'Name: Invalid email Not now' }),
    ).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Save probe' }));
    expect(
      await within(screen.getByTestId('error-summary')).findByRole('link', {
        name: 'Name: An error has occurred',
      }),
    ).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toMatchObject([
      { url: '/api/ops/case-activities/5/probe/', body: { name: 'Ada' } },
      { url: '/api/ops/case-activities/5/probe/', body: { name: 'Ada' } },
    ]);
  });
});
