import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Call, mockFetch } from '../../../../test/fetch-mock';
import DbsBasicSection from '../dbs-basic';
import DbsEnhancedSection from '../dbs-enhanced';
import DbsStandardSection from '../dbs-standard';
import { payload, renderSection } from './test-kit';

const BIRTH = {
  case: 7,
  country: 'GBR',
  country_dbs: '',
  town: 'Leeds',
  town_dbs: '',
  county: '',
  county_dbs: '',
  locked_fields: [],
};
const DBS = {
  case: 7,
  idv_option: '',
  video_call_date: null,
  in_person_expected_date: null,
  state: 'pending',
};

function api(overrides: { birth?: object; dbs?: object; consents?: object[] } = {}) {
  return mockFetch((call: Call) => {
    const path = new URL(call.url, 'http://x').pathname;
    if (call.method === 'GET' && path === '/api/s/case-birth-details/7/')
      return { status: 200, body: { ...BIRTH, ...overrides.birth } };
    if (call.method === 'GET' && path === '/api/s/case-dbs-details/7/')
      return { status: 200, body: { ...DBS, ...overrides.dbs } };
    if (call.method === 'GET' && path === '/api/s/consents/')
      return { status: 200, body: overrides.consents ?? [] };
    if (call.method === 'PATCH' && path === '/api/s/case-birth-details/7/')
      return { status: 200, body: { ...BIRTH, ...(call.body as object) } };
    if (call.method === 'PATCH' && path === '/api/s/case-basic-details/7/')
      return { status: 200, body: call.body };
    if (call.method === 'PATCH' && path === '/api/s/case-dbs-details/7/')
      return { status: 200, body: { ...DBS, ...(call.body as object) } };
    if (call.method === 'POST' && path === '/api/s/consents/')
      return { status: 201, body: { id: 1, ...(call.body as object) } };
    return { status: 404, body: { detail: 'Not found.' } };
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
  sessionStorage.clear(); // the drafts of one test are not the next one's
});

const continueButton = () => screen.getByRole('button', { name: 'Continue' });

describe('criminal-record application sections', () => {
  it('summarises every missing answer at the top, linked to its field, and saves nothing', async () => {
    const calls = api({ birth: { country: '', town: '' } });
    const { complete } = renderSection(
      DbsEnhancedSection,
      'dbs-enhanced',
      payload({ activities: [{ id: 31, code: 'dbs-enhanced' }] }),
    );
    await screen.findByText('Where you were born');
    await userEvent.click(continueButton());
    const summary = await screen.findByTestId('error-summary');
    const links = within(summary)
      .getAllByRole('link')
      .map((a) => [a.textContent, a.getAttribute('href')]);
    expect(links).toEqual([
      ['Country of birth: Required', '#country'],
      ['Town of birth: Required', '#town'],
      ['How your identity will be checked: Required', '#idv_option'],
      ['Declaration and consent: Please confirm', '#declaration'],
    ]);
    expect(calls.filter((c) => c.method !== 'GET')).toEqual([]);
    expect(complete).not.toHaveBeenCalled();
  });

  it('asks for a name the DBS cannot take as it should appear for the DBS, then saves everything and gives the consent', async () => {
    const calls = api();
    const { complete } = renderSection(
      DbsEnhancedSection,
      'dbs-enhanced',
      payload({
        activities: [{ id: 31, code: 'dbs-enhanced' }],
        basicDetails: { surname: "O'Brien-Zoë" },
      }),
    );
    await screen.findByText('Where you were born');
    expect(screen.getByTestId('dbs-warning')).toBeInTheDocument();
    await userEvent.click(screen.getByTestId('choice-video-call'));
    await userEvent.click(screen.getByRole('checkbox'));
    await userEvent.click(continueButton());
    const summary = await screen.findByTestId('error-summary');
    expect(
      within(summary).getByRole('link', { name: 'Last name (for DBS): Required' }),
    ).toHaveAttribute('href', '#surname_dbs');
    expect(
      within(summary).getByRole('link', { name: 'Date of the video call: Required' }),
    ).toBeInTheDocument();

    await userEvent.type(screen.getByLabelText(/Last name \(for DBS\)/), 'OBrien-Zoe');
    await userEvent.click(screen.getByRole('radio', { name: /In person/ }));
    // the in-person date: pick next year's first of January
    const year = String(new Date().getUTCFullYear() + 1);
    const label = 'Date you expect to show your documents';
    await userEvent.selectOptions(screen.getByLabelText(`${label}: year`), year);
    await userEvent.selectOptions(screen.getByLabelText(`${label}: month`), 'January');
    await userEvent.selectOptions(screen.getByLabelText(`${label}: day`), '1');
    await userEvent.click(continueButton());
    await waitFor(() => expect(complete).toHaveBeenCalledTimes(1));
    const writes = calls
      .filter((c) => c.method !== 'GET')
      .map((c) => [c.method, new URL(c.url, 'http://x').pathname, c.body]);
    expect(writes).toEqual([
      [
        'PATCH',
        '/api/s/case-birth-details/7/',
        {
          country: 'GBR',
          country_dbs: '',
          town: 'Leeds',
          town_dbs: '',
          county: '',
          county_dbs: '',
        },
      ],
      ['PATCH', '/api/s/case-basic-details/7/', { surname_dbs: 'OBrien-Zoe' }],
      [
        'PATCH',
        '/api/s/case-dbs-details/7/',
        {
          idv_option: 'in-person',
          video_call_date: null,
          in_person_expected_date: `${year}-01-01`,
        },
      ],
      ['POST', '/api/s/consents/', { case: 7, case_activity: 31, kind: 'dbs-application' }],
    ]);
  });

  it('asks for the country of birth as the DBS knows it when the service does not support it', async () => {
    const calls = api({ birth: { country: 'ATA', town: 'McMurdo Station' } });
    const { complete } = renderSection(
      DbsBasicSection,
      'dbs-basic',
      payload({ activities: [{ id: 5, code: 'dbs-basic' }] }),
    );
    await screen.findByText('Where you were born');
    await waitFor(() =>
      expect(screen.getByLabelText(/Country of birth \(for DBS\)/)).toBeInTheDocument(),
    );
    await userEvent.click(screen.getByTestId('choice-online'));
    await userEvent.click(screen.getByRole('checkbox'));
    await userEvent.click(continueButton());
    const summary = await screen.findByTestId('error-summary');
    expect(
      within(summary).getByRole('link', { name: 'Country of birth (for DBS): Required' }),
    ).toHaveAttribute('href', '#country_dbs');
    expect(calls.filter((c) => c.method !== 'GET')).toEqual([]);
    expect(complete).not.toHaveBeenCalled();
  });

  it('puts the server’s field messages on the fields', async () => {
    mockFetch((call: Call) => {
      const path = new URL(call.url, 'http://x').pathname;
      if (call.method === 'GET' && path === '/api/s/case-birth-details/7/')
        return { status: 200, body: BIRTH };
      if (call.method === 'GET' && path === '/api/s/case-dbs-details/7/')
        return { status: 200, body: { ...DBS, idv_option: 'online' } };
      if (call.method === 'GET') return { status: 200, body: [] };
      if (path === '/api/s/case-dbs-details/7/')
        return {
          status: 400,
          body: { idv_option: ['The identity has been verified: this can no longer be changed.'] },
        };
      return { status: 200, body: {} };
    });
    const { complete } = renderSection(
      DbsBasicSection,
      'dbs-basic',
      payload({ activities: [{ id: 5, code: 'dbs-basic' }] }),
    );
    await screen.findByText('Where you were born');
    await userEvent.click(screen.getByRole('checkbox'));
    await userEvent.click(continueButton());
    expect(
      await screen.findByRole('link', {
        name: 'How your identity will be checked: The identity has been verified: this can no longer be changed.',
      }),
    ).toBeInTheDocument();
    expect(complete).not.toHaveBeenCalled();
  });

  it('shows a consent already given, ticked, and does not give it twice', async () => {
    const calls = api({
      dbs: { idv_option: 'online' },
      consents: [{ id: 9, case: 7, case_activity: 5, kind: 'dbs-application', status: 'active' }],
    });
    const { complete } = renderSection(
      DbsBasicSection,
      'dbs-basic',
      payload({ activities: [{ id: 5, code: 'dbs-basic' }] }),
    );
    await screen.findByText('Where you were born');
    await waitFor(() => expect(screen.getByRole('checkbox')).toBeChecked());
    await userEvent.click(continueButton());
    await waitFor(() => expect(complete).toHaveBeenCalled());
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  describe('a case with all three levels asks the shared questions once', () => {
    const allLevels = () => {
      const p = payload({
        activities: [
          { id: 31, code: 'dbs-enhanced' },
          { id: 32, code: 'dbs-standard' },
          { id: 33, code: 'dbs-basic' },
        ],
      });
      p.portal.sections = [
        'welcome',
        'dbs-enhanced',
        'dbs-standard',
        'dbs-basic',
        'review',
        'done',
      ];
      return p;
    };

    it('the first level asks them', async () => {
      api();
      renderSection(DbsEnhancedSection, 'dbs-enhanced', allLevels());
      await screen.findByText('Where you were born');
      expect(screen.getByText(/How your identity will be checked/)).toBeInTheDocument();
    });

    it.each([
      ['dbs-standard', DbsStandardSection, 32],
      ['dbs-basic', DbsBasicSection, 33],
    ] as const)(
      '%s shows the answers given, links back to change them, and asks only its consent',
      async (section, Section, activityId) => {
        const calls = api({
          dbs: { idv_option: 'in-person', in_person_expected_date: '2099-01-02' },
        });
        const { complete } = renderSection(Section, section, allLevels());
        await screen.findByText('Declaration and consent');
        expect(screen.queryByText('Where you were born')).toBeNull();
        expect(screen.queryByLabelText('Country of birth')).toBeNull();
        expect(screen.queryByRole('radio')).toBeNull();
        const given = await screen.findByTestId('dbs-shared-answers');
        await waitFor(() => expect(given).toHaveTextContent('Leeds'));
        expect(given).toHaveTextContent('United Kingdom');
        expect(given).toHaveTextContent('In person, showing my documents');
        expect(given).toHaveTextContent('2nd Jan 2099');
        expect(
          screen.getByRole('link', { name: 'Change your answers in Enhanced DBS check' }),
        ).toHaveAttribute('href', '/s/case-portal/7/dbs-enhanced');
        await userEvent.click(continueButton());
        expect(
          within(await screen.findByTestId('error-summary')).getByRole('link', {
            name: 'Declaration and consent: Please confirm',
          }),
        ).toBeInTheDocument();
        await userEvent.click(screen.getByRole('checkbox'));
        await userEvent.click(continueButton());
        await waitFor(() => expect(complete).toHaveBeenCalledTimes(1));
        const writes = calls
          .filter((c) => c.method !== 'GET')
          .map((c) => [c.method, new URL(c.url, 'http://x').pathname, c.body]);
        expect(writes).toEqual([
          [
            'POST',
            '/api/s/consents/',
            { case: 7, case_activity: activityId, kind: 'dbs-application' },
          ],
        ]);
      },
    );
  });
});
