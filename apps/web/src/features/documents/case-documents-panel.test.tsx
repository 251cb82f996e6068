import type { CaseDocumentOut } from '@kestrel/domain';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../test/fetch-mock';
import { renderWithProviders } from '../../test/render';
import { CaseDocumentsPanel } from './case-documents-panel';
import { inlineUrl } from './inline-url';

function doc(id: number, prefix: string, over: Partial<CaseDocumentOut> = {}): CaseDocumentOut {
  const base = `${prefix}${id}/`;
  const page = (n: number, ext: string, type: string) => ({
    page: n,
    original_name: `p${n}.${ext}`,
    content_type: type,
    extension: ext,
    size: 100,
    converted_from: null,
    content_url: `${base}download/${n > 1 ? `?page=${n}` : ''}`,
    thumbnail_url: `${base}thumbnail/${n > 1 ? `?page=${n}` : ''}`,
    preview: 'ready' as const,
  });
  return {
    id,
    case: 3,
    case_activity: null,
    collector: 'identity',
    document_type: 'Passport',
    document_type_code: 'passport',
    group: '1',
    route_index: 1,
    source: 'manual',
    extension: 'pdf',
    content_url: `${base}download/`,
    thumbnail_url: `${base}thumbnail/`,
    rejected: false,
    rejection_reason: '',
    rejected_at: null,
    rejected_by: '',
    confirmations: [],
    confirmed: false,
    pages: [page(1, 'pdf', 'application/pdf'), page(2, 'jpg', 'image/jpeg')],
    uploaded_by: 'SubjectUser',
    created_at: '2026-11-24T10:00:00Z',
    updated_at: '2026-11-24T10:00:00Z',
    ...over,
  };
}

afterEach(() => vi.unstubAllGlobals());

describe('case documents panel', () => {
  it('shows the customer each non-rejected document by collector, with group, route and copy-id', async () => {
    const p = '/api/case-documents/';
    const calls = mockFetch(() => ({
      status: 200,
      body: {
        count: 4,
        next: null,
        previous: null,
        results: [
          doc(1, p),
          doc(2, p, { rejected: true, document_type: 'Utility bill' }),
          doc(3, p, {
            source: 'idsp',
            document_type: 'Driving licence',
            group: '1',
            route_index: 2,
          }),
          doc(4, p, {
            collector: 'right-to-work',
            document_type: 'Birth certificate',
            group: 'B1',
            route_index: null,
          }),
        ],
      },
    }));
    renderWithProviders(<CaseDocumentsPanel caseId={3} audience="customer" />);
    expect(await screen.findByRole('heading', { name: 'Identity documents' })).toBeInTheDocument();
    expect(calls[0]?.url).toBe('/api/case-documents/?case=3&page_size=100');
    expect(screen.queryByText('Utility bill')).toBeNull();
    expect(screen.getByText('Group 1')).toBeInTheDocument();
    expect(screen.getByText('Route 1')).toBeInTheDocument();
    // the identity provider's document hides group and route
    expect(screen.queryByText('Route 2')).toBeNull();
    expect(screen.getByText('From the identity service provider')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Right to work documents' })).toBeInTheDocument();
    expect(screen.getByText('List B, group 1')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy document id 1' })).toBeInTheDocument();
    expect(
      screen.getByRole('link', { name: 'Open Passport, page 2 of 2 in a new tab' }),
    ).toHaveAttribute('href', '/api/case-documents/1/download/?page=2&inline=true');
  });

  it('reads the subject documents through the subject path, without copy-id, and opens the viewer', async () => {
    const p = '/api/s/case-documents/';
    mockFetch(() => ({
      status: 200,
      body: { count: 1, next: null, previous: null, results: [doc(9, p)] },
    }));
    renderWithProviders(<CaseDocumentsPanel caseId={3} caseActivity={12} audience="subject" />);
    // A PDF's thumbnail shows 'PDF': its name starts with it (WCAG 2.5.3, label in name).
    const view = await screen.findByRole('button', { name: 'PDF: View Passport, page 1 of 2' });
    expect(view.textContent).toBe('PDF');
    expect(screen.queryByRole('button', { name: /Copy document id/ })).toBeNull();
    await userEvent.click(view);
    const dialog = await screen.findByRole('dialog');
    const pdf = dialog.querySelector('object');
    expect(pdf?.getAttribute('data')).toBe('/api/s/case-documents/9/download/?inline=true');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Next page' }));
    expect(within(dialog).getByRole('img', { name: 'Passport, page 2 of 2' })).toHaveAttribute(
      'src',
      '/api/s/case-documents/9/download/?page=2&inline=true',
    );
  });

  it('shows a placeholder for a preview on its way or none, the page still opening', async () => {
    const p = '/api/case-documents/';
    const d = doc(5, p);
    const [pdf, photo] = d.pages;
    if (!pdf || !photo) throw new Error('two pages');
    const calls = mockFetch(() => ({
      status: 200,
      body: {
        count: 1,
        next: null,
        previous: null,
        results: [
          {
            ...d,
            pages: [
              { ...pdf, preview: 'none' },
              { ...photo, preview: 'pending' },
            ],
          },
        ],
      },
    }));
    renderWithProviders(<CaseDocumentsPanel caseId={3} audience="customer" />);
    // the visible words are the start of each button's name (WCAG 2.5.3)
    const none = await screen.findByRole('button', {
      name: 'No preview (PDF): View Passport, page 1 of 2',
    });
    expect(within(none).getByText('No preview (PDF)')).toBeInTheDocument();
    const pending = screen.getByRole('button', {
      name: 'Preview on its way: View Passport, page 2 of 2',
    });
    expect(within(pending).getByText('Preview on its way')).toBeInTheDocument();
    // no request for a thumbnail that is not there
    expect(document.querySelector('img[src*="thumbnail"]')).toBeNull();
    await userEvent.click(none);
    const dialog = await screen.findByRole('dialog');
    expect(dialog.querySelector('object')?.getAttribute('data')).toBe(
      '/api/case-documents/5/download/?inline=true',
    );
    expect(calls[0]?.url).toBe('/api/case-documents/?case=3&page_size=100');
  });

  it('says when the list could not be loaded', async () => {
    mockFetch(() => ({ status: 500, body: {} }));
    renderWithProviders(<CaseDocumentsPanel caseId={3} audience="ops" />);
    expect(await screen.findByText('Error getting list of case documents')).toBeInTheDocument();
  });

  it('adds inline=true to a download URL', () => {
    expect(inlineUrl('/api/case-documents/1/download/')).toBe(
      '/api/case-documents/1/download/?inline=true',
    );
    expect(inlineUrl('/a/?page=2')).toBe('/a/?page=2&inline=true');
  });
});
