import type { CaseDocumentOut, CasePortalOut } from '@kestrel/domain';
import { DOCUMENT_MESSAGES, documentQuestionText, IDENTITY_DOCUMENT_TYPES } from '@kestrel/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Call, mockFetch } from '../../../test/fetch-mock';
import { renderWithProviders } from '../../../test/render';
import { PortalFrameContext } from '../frame-context';
import DocumentCollectionSection from './document-collection';

function portalWith(codes: string[], submitted = false): CasePortalOut {
  return {
    portal: {
      id: 7,
      customer: { id: 1, name: 'Acme' },
      state: 'open',
      case_activities: codes.map((code, i) => ({
        id: 100 + i,
        activity_type: { code, code_display: code },
        state: 'open',
        state_display: 'Open',
        config: {},
      })),
      required_consents: [],
      portal_last_completed_section: null,
      sections: ['welcome', 'document-collection', 'review', 'done'],
      progress: { completed: 1, total: 4, percent: 25, next: 'document-collection' },
      submitted,
    },
    basic_details: null,
    documentation: { passport: null, driving_licence: null },
    online_idv: {
      session: null,
      ibv_verified: false,
      ibv_session: null,
      manual_idv_approved: false,
      id_profile: null,
      verified: false,
    },
    subscriptions: [],
  };
}

function docOut(id: number, over: Partial<CaseDocumentOut> = {}): CaseDocumentOut {
  const base = `/api/s/case-documents/${id}/`;
  return {
    id,
    case: 7,
    case_activity: 100,
    collector: 'identity',
    document_type: 'Passport',
    document_type_code: 'passport',
    group: '1',
    route_index: null,
    source: 'manual',
    extension: 'png',
    content_url: `${base}download/`,
    thumbnail_url: `${base}thumbnail/`,
    rejected: false,
    rejection_reason: '',
    rejected_at: null,
    rejected_by: '',
    confirmations: ['original'],
    confirmed: true,
    pages: [
      {
        page: 1,
        original_name: 'passport.png',
        content_type: 'image/png',
        extension: 'png',
        size: 1200,
        converted_from: null,
        content_url: `${base}download/`,
        thumbnail_url: `${base}thumbnail/`,
        preview: 'ready',
      },
    ],
    uploaded_by: 'SubjectUser',
    created_at: '2026-11-24T10:00:00Z',
    updated_at: '2026-11-24T10:00:00Z',
    ...over,
  };
}

interface Sent {
  method: string;
  url: string;
  body: FormData;
}

/** A fake XMLHttpRequest: reports half the bytes sent, then answers `answer`. */
function mockXhr(
  answer: (sent: Sent) => { status: number; body: unknown },
  { hold = false }: { hold?: boolean } = {},
) {
  const sent: Sent[] = [];
  const held: (() => void)[] = [];
  class FakeXhr {
    method = '';
    url = '';
    status = 0;
    responseText = '';
    withCredentials = false;
    headers: Record<string, string> = {};
    upload: {
      onprogress:
        | ((e: { lengthComputable: boolean; loaded: number; total: number }) => void)
        | null;
    } = {
      onprogress: null,
    };
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    onabort: (() => void) | null = null;
    open(method: string, url: string) {
      this.method = method;
      this.url = url;
    }
    setRequestHeader(k: string, v: string) {
      this.headers[k] = v;
    }
    abort() {}
    send(body: FormData) {
      const s = { method: this.method, url: this.url, body };
      sent.push(s);
      this.upload.onprogress?.({ lengthComputable: true, loaded: 50, total: 100 });
      const finish = () => {
        const a = answer(s);
        this.status = a.status;
        this.responseText = JSON.stringify(a.body);
        this.onload?.();
      };
      if (hold) held.push(finish);
      else setTimeout(finish, 10);
    }
  }
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  return Object.assign(sent, {
    /** Answers the held requests. */
    release: () => {
      for (const f of held.splice(0)) f();
    },
  });
}

const png = () =>
  new File([new Uint8Array([137, 80, 78, 71, 1, 2, 3])], 'passport.png', { type: 'image/png' });

let docs: CaseDocumentOut[];
let calls: Call[];
beforeEach(() => {
  docs = [];
  calls = mockFetch((call) => {
    if (call.method === 'GET' && call.url.startsWith('/api/s/case-documents/?'))
      return {
        status: 200,
        body: { count: docs.length, next: null, previous: null, results: docs },
      };
    if (call.method === 'DELETE') return { status: 204 };
    return { status: 404, body: {} };
  });
});
afterEach(() => vi.unstubAllGlobals());

function renderSection(
  codes: string[],
  opts: { readOnly?: boolean; complete?: () => Promise<void> } = {},
) {
  const complete = vi.fn(opts.complete ?? (async () => {}));
  const props = {
    caseId: 7,
    section: 'document-collection' as const,
    portal: portalWith(codes),
    refresh: async () => {},
    readOnly: opts.readOnly ?? false,
    complete,
  };
  // The section renders in the portal frame's SectionShell (Back, Continue, error summary).
  const frame = {
    ...props,
    previous: 'welcome' as const,
    following: 'review' as const,
    goTo: vi.fn(),
    linkTo: (s: string) => `/s/case-portal/7/${s}`,
  };
  renderWithProviders(
    <PortalFrameContext.Provider value={frame}>
      <DocumentCollectionSection {...props} />
    </PortalFrameContext.Provider>,
  );
  return complete;
}

describe('document collection section', () => {
  it('asks for at least one document per collector before moving on', async () => {
    const complete = renderSection(['document-collection', 'dbs-enhanced', 'rtw']);
    expect(await screen.findByRole('heading', { name: 'Identity documents' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Right to work documents' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    const summary = await screen.findByRole('alert');
    expect(within(summary).getByText('There is a problem')).toBeInTheDocument();
    expect(
      within(summary).getByRole('link', {
        name: 'Upload at least one document for identity documents',
      }),
    ).toHaveAttribute('href', '#collector-identity');
    expect(
      within(summary).getByRole('link', { name: /right to work documents/ }),
    ).toBeInTheDocument();
    expect(complete).not.toHaveBeenCalled();
    expect(calls[0]?.url).toBe('/api/s/case-documents/?case=7&page_size=100');
  });

  it('lists the identity-check types and asks each question of the chosen type', async () => {
    renderSection(['dbs-basic']);
    const select = await screen.findByLabelText('Document type');
    expect(screen.queryByRole('heading', { name: 'Right to work documents' })).toBeNull();
    const options = within(select)
      .getAllByRole('option')
      .map((o) => o.textContent);
    expect(options).toContain('Passport');
    expect(options).toHaveLength(IDENTITY_DOCUMENT_TYPES.length + 1);
    await userEvent.selectOptions(select, 'passport');
    const passport = IDENTITY_DOCUMENT_TYPES.find((t) => t.code === 'passport');
    // the person answers about themself, not about 'the subject'
    expect(screen.getByLabelText('Does the photograph look like you?')).toBeInTheDocument();
    expect(screen.queryByText(/the subject/)).toBeNull();
    for (const q of passport?.questions ?? [])
      expect(screen.getByLabelText(documentQuestionText(q, 'self'))).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Upload document' }));
    const summary = await screen.findByRole('alert');
    expect(within(summary).getAllByRole('link', { name: /^Please confirm: / })).toHaveLength(
      passport?.questions.length ?? 0,
    );
    expect(within(summary).getByRole('link', { name: DOCUMENT_MESSAGES.noFile })).toHaveAttribute(
      'href',
      '#add-identity-files',
    );
    // each question says 'Please confirm' beside it, and no more once ticked
    const n = passport?.questions.length ?? 0;
    expect(screen.getAllByText('Please confirm')).toHaveLength(n);
    const first = passport?.questions[0];
    await userEvent.click(screen.getByLabelText(first ? documentQuestionText(first, 'self') : ''));
    expect(screen.getAllByText('Please confirm')).toHaveLength(n - 1);
  });

  it('refuses a file of the wrong type in the spec words', async () => {
    renderSection(['dbs-basic']);
    const input = await screen.findByTestId('add-identity-files-input');
    fireEvent.change(input, {
      target: { files: [new File(['x'], 'notes.docx', { type: 'application/msword' })] },
    });
    expect(await screen.findByText(DOCUMENT_MESSAGES.unsupportedType)).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Chosen pages' })).toBeNull();
  });

  it('uploads a confirmed document with its pages, showing progress, then shows it', async () => {
    const sent = mockXhr(
      () => {
        docs = [docOut(5)];
        return { status: 201, body: docs[0] };
      },
      { hold: true },
    );
    const complete = renderSection(['document-collection', 'dbs-basic']);
    await userEvent.selectOptions(await screen.findByLabelText('Document type'), 'passport');
    for (const box of screen.getAllByRole('checkbox')) await userEvent.click(box);
    fireEvent.change(screen.getByTestId('add-identity-files-input'), {
      target: { files: [png(), new File(['%PDF-1.4'], 'back.pdf', { type: 'application/pdf' })] },
    });
    expect(screen.getByText('Page 2')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Upload document' }));
    expect(await screen.findByText('Uploading… 50%')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Uploading: 50%' })).toBeInTheDocument();
    sent.release();
    expect(await screen.findByTestId('uploaded-document')).toBeInTheDocument();
    expect(sent).toHaveLength(1);
    const form = sent[0]?.body;
    expect(sent[0]?.url).toBe('/api/s/case-documents/');
    expect(form?.get('case')).toBe('7');
    expect(form?.get('case_activity')).toBe('100');
    expect(form?.get('document_type')).toBe('passport');
    expect(form?.get('collector')).toBe('identity');
    expect(form?.get('confirmations')).toBe(
      IDENTITY_DOCUMENT_TYPES[0]?.questions.map((q) => q.id).join(','),
    );
    expect(form?.getAll('file')).toHaveLength(2);
    expect(screen.getByRole('link', { name: 'Open Passport in a new tab' })).toHaveAttribute(
      'href',
      '/api/s/case-documents/5/download/?inline=true',
    );
    // Continue counts the document just uploaded (no reload of the page in between).
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(complete).toHaveBeenCalledTimes(1));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says a file is too large when the server answers 413', async () => {
    mockXhr(() => ({
      status: 413,
      body: { file: [DOCUMENT_MESSAGES.tooLarge(25 * 1024 * 1024)] },
    }));
    renderSection(['dbs-basic']);
    await userEvent.selectOptions(await screen.findByLabelText('Document type'), 'passport');
    for (const box of screen.getAllByRole('checkbox')) await userEvent.click(box);
    fireEvent.change(screen.getByTestId('add-identity-files-input'), {
      target: { files: [png()] },
    });
    await userEvent.click(screen.getByRole('button', { name: 'Upload document' }));
    const summary = await screen.findByRole('alert');
    expect(
      within(summary).getByText('The file is too large: upload a file of at most 25 MB.'),
    ).toBeInTheDocument();
  });

  it('replaces a document with new pages, and moves on once each list has one', async () => {
    docs = [docOut(5)];
    const sent = mockXhr(() => ({ status: 200, body: docOut(5) }));
    const complete = renderSection(['dbs-basic']);
    await screen.findByTestId('uploaded-document');
    fireEvent.change(screen.getByTestId('doc-5-input'), { target: { files: [png()] } });
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]?.method).toBe('PUT');
    expect(sent[0]?.url).toBe('/api/s/case-documents/5/');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(complete).toHaveBeenCalledTimes(1));
  });

  it('shows a rejected document to replace, and does not count it', async () => {
    docs = [docOut(5, { rejected: true })];
    const complete = renderSection(['dbs-basic']);
    expect(await screen.findByText('This document was not accepted')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Replace Passport' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(
      await screen.findByRole('link', {
        name: 'Upload at least one document for identity documents',
      }),
    ).toBeInTheDocument();
    expect(complete).not.toHaveBeenCalled();
  });

  it('shows why a document was rejected and asks for it again before Continue', async () => {
    docs = [
      docOut(5, { rejected: true, rejection_reason: 'The photo is blurred.' }),
      docOut(6, { document_type: 'Utility bill', document_type_code: 'utility-bill' }),
    ];
    const complete = renderSection(['dbs-basic']);
    const alert = await screen.findByTestId('rejected-document');
    expect(alert).toHaveTextContent('This document was not accepted');
    expect(alert).toHaveTextContent('Reason: The photo is blurred.');
    expect(alert).toHaveTextContent('Replace it with a clearer photo or scan, or remove it.');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(
      await screen.findByRole('link', {
        name: 'Replace or remove the document of identity documents that was not accepted',
      }),
    ).toBeInTheDocument();
    expect(complete).not.toHaveBeenCalled();
  });

  it('shows the documents without inputs once submitted', async () => {
    docs = [docOut(5, { collector: 'right-to-work', document_type: 'Passport (UK or Irish)' })];
    renderSection(['rtw'], { readOnly: true });
    expect(await screen.findByTestId('uploaded-document')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Replace/ })).toBeNull();
    expect(screen.queryByLabelText('Document type')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Continue' })).toBeNull();
  });
});
