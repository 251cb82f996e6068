import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Call, mockFetch } from '../../test/fetch-mock';
import { portalTarget } from './case-portal-page';
import { portalPayload, renderPortal } from './portal-test-kit';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('portalTarget', () => {
  const p = (last: string | null, submitted = false) => portalPayload({ last, submitted }).portal;
  it('resumes at the first unfinished section without a section', () => {
    expect(portalTarget(p(null))).toBe('welcome');
    expect(portalTarget(p('welcome'))).toBe('basic-details');
    expect(portalTarget(p('address-history/2'))).toBe('address-history');
  });
  it('opens a section already reached, never one further on', () => {
    expect(portalTarget(p('basic-details'), 'welcome')).toBe('welcome');
    expect(portalTarget(p('welcome'), 'review')).toBe('basic-details');
    expect(portalTarget(p('welcome'), 'rtw')).toBe('basic-details');
    expect(portalTarget(p('address-history'), 'done')).toBe('review');
  });
  it('after submission opens any section, Done by default', () => {
    expect(portalTarget(p('review', true))).toBe('done');
    expect(portalTarget(p('review', true), 'basic-details')).toBe('basic-details');
  });
});

/** A portal server in memory: GET answers the payload for the recorded progress; PATCH records. */
function portalServer(initial: string | null = null, submitted = false) {
  let last = initial;
  const calls = mockFetch((call: Call) => {
    if (call.url.startsWith('/api/s/case-portal/7/')) {
      if (call.method === 'PATCH') {
        const body = call.body as { portal_last_completed_section: string };
        last = body.portal_last_completed_section;
      }
      return { status: 200, body: portalPayload({ last, submitted }) };
    }
    if (call.url.startsWith('/api/s/case-portal/'))
      return { status: 404, body: { detail: 'Not found.' } };
    return { status: 404, body: {} };
  });
  return { calls, last: () => last };
}

describe('the case portal frame', () => {
  it('resumes at the first unfinished section and lists only the case sections', async () => {
    portalServer('welcome');
    renderPortal(7);
    const nav = await screen.findByRole('navigation', { name: 'Sections' }, { timeout: 5000 });
    const items = within(nav)
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(items.join('|')).toMatch(
      /Welcome.*\|.*Basic details\|.*Address history\|.*Review & Submit\|.*Done/,
    );
    expect(items).toHaveLength(5);
    expect(await screen.findByRole('heading', { level: 1, name: 'Basic details' })).toBeTruthy();
    expect(screen.getByText('Step 2 of 5')).toBeTruthy();
    // Done sections link back; later ones cannot be opened yet.
    expect(within(nav).getByRole('link', { name: /Welcome/ })).toBeTruthy();
    expect(within(nav).queryByRole('link', { name: /Review/ })).toBeNull();
  });

  it('Welcome: Start records the progress and opens the next section', async () => {
    const server = portalServer(null);
    renderPortal(7, 'welcome');
    fireEvent.click(await screen.findByRole('button', { name: 'Start' }, { timeout: 5000 }));
    const heading = await screen.findByRole(
      'heading',
      { level: 1, name: 'Basic details' },
      { timeout: 5000 },
    );
    expect(server.last()).toBe('welcome');
    // The focus starts at the top of the new section.
    await waitFor(() => expect(document.activeElement).toBe(heading));
    const patch = server.calls.find((c) => c.method === 'PATCH');
    expect(patch?.body).toEqual({ portal_last_completed_section: 'welcome' });
  });

  it('does not move the progress back when an earlier section is done again', async () => {
    const server = portalServer('address-history');
    renderPortal(7, 'welcome');
    fireEvent.click(await screen.findByRole('button', { name: 'Start' }, { timeout: 5000 }));
    await screen.findByRole('heading', { level: 1, name: 'Basic details' }, { timeout: 5000 });
    expect(server.calls.some((c) => c.method === 'PATCH')).toBe(false);
  });

  it('sends a section further on than the progress back to the first unfinished one', async () => {
    portalServer('welcome');
    renderPortal(7, 'review');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Basic details' }, { timeout: 5000 }),
    ).toBeTruthy();
  });

  it('is read-only after submission: no Continue', async () => {
    portalServer('review', true);
    renderPortal(7, 'welcome');
    expect(await screen.findByTestId('portal-read-only', {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Start' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Next' })).toBeTruthy();
  });

  it('says "Error retrieving portal" when the portal cannot be loaded', async () => {
    mockFetch(() => ({ status: 500, body: {} }));
    renderPortal(7, 'welcome');
    expect(await screen.findByText('Error retrieving portal')).toBeTruthy();
  });

  it('says the case was not found for a case that is not the person’s', async () => {
    portalServer();
    renderPortal(8);
    expect(await screen.findByText('This case was not found.')).toBeTruthy();
  });
});
