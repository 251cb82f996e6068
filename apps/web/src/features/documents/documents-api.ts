import { type CaseDocumentOut, DOCUMENT_MESSAGES } from '@kestrel/domain';
import {
  type ApiErrorBody,
  type ApiResult,
  getCsrfToken,
  type Page,
  request,
} from '../../api/client';

/** Who looks at documents: each has its own API prefix (spec point 7). */
export type DocumentAudience = 'customer' | 'ops' | 'subject';

export const DOCUMENT_API: Record<DocumentAudience, string> = {
  customer: '/api/case-documents/',
  ops: '/api/ops/case-documents/',
  subject: '/api/s/case-documents/',
};

/** The server's default upload cap (UPLOAD_MAX_BYTES): the words of a 413 without a body. */
export const DEFAULT_MAX_UPLOAD_BYTES = 25 * 1024 * 1024;

/** What a file input offers: photos (JPEG, PNG, HEIC) and PDF scans. */
export const DOCUMENT_ACCEPT =
  'image/jpeg,image/png,image/heic,image/heif,application/pdf,.jpg,.jpeg,.png,.heic,.heif,.pdf';

const ACCEPTED_EXTENSIONS = ['jpg', 'jpeg', 'png', 'heic', 'heif', 'pdf'];
const ACCEPTED_TYPES = [
  'image/jpeg',
  'image/png',
  'image/heic',
  'image/heif',
  'image/heic-sequence',
  'application/pdf',
];

/**
 * A first look at a chosen file (the server decides by its content): the words of a wrong type
 * or a file over the cap, or null when it may be sent.
 */
export function checkFile(file: File, maxBytes = DEFAULT_MAX_UPLOAD_BYTES): string | null {
  const ext = file.name.includes('.') ? (file.name.split('.').pop() ?? '').toLowerCase() : '';
  const typeOk = ACCEPTED_TYPES.includes(file.type.toLowerCase());
  if (!typeOk && !ACCEPTED_EXTENSIONS.includes(ext)) return DOCUMENT_MESSAGES.unsupportedType;
  if (file.size > maxBytes) return DOCUMENT_MESSAGES.tooLarge(maxBytes);
  if (file.size === 0) return DOCUMENT_MESSAGES.unreadableImage;
  return null;
}

/** A case's documents, optionally of one activity (GET ...?case=&case_activity=). */
export async function listCaseDocuments(
  audience: DocumentAudience,
  caseId: number,
  caseActivity?: number | null,
): Promise<ApiResult<Page<CaseDocumentOut>>> {
  return request<Page<CaseDocumentOut>>('GET', DOCUMENT_API[audience], {
    params: {
      case: caseId,
      ...(caseActivity ? { case_activity: caseActivity } : {}),
      page_size: 100,
    },
  });
}

export async function deleteCaseDocument(
  audience: DocumentAudience,
  id: number,
): Promise<ApiResult<null>> {
  return request<null>('DELETE', `${DOCUMENT_API[audience]}${id}/`, { expect: 204 });
}

/** The fields of a new document (beside its files). */
export interface NewDocumentFields {
  case: number;
  case_activity?: number | null;
  document_type: string;
  collector: string;
  /** The ids of the eligibility questions the person confirmed. */
  confirmations: readonly string[];
}

export type UploadMode =
  | { kind: 'create'; fields: NewDocumentFields }
  | { kind: 'replace'; id: number; confirmations?: readonly string[] }
  | { kind: 'add-pages'; id: number };

/** What an upload resolves to: never throws (status 0 when the network failed). */
export type UploadResult =
  | { ok: true; status: number; data: CaseDocumentOut }
  | { ok: false; status: number; data: ApiErrorBody };

/** Builds the multipart body: the fields first, then one `file` part per page. */
export function uploadForm(mode: UploadMode, files: readonly File[]): FormData {
  const form = new FormData();
  if (mode.kind === 'create') {
    const f = mode.fields;
    form.append('case', String(f.case));
    if (f.case_activity) form.append('case_activity', String(f.case_activity));
    form.append('document_type', f.document_type);
    form.append('collector', f.collector);
    form.append('confirmations', f.confirmations.join(','));
  } else if (mode.kind === 'replace' && mode.confirmations) {
    form.append('confirmations', mode.confirmations.join(','));
  }
  for (const file of files) form.append('file', file, file.name);
  return form;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/**
 * Sends a document's pages with upload progress (XMLHttpRequest: fetch cannot report it).
 * `onProgress` gets 0..1 as the bytes go. A 413 without the server's words gets them here.
 */
export function uploadDocument(
  audience: DocumentAudience,
  mode: UploadMode,
  files: readonly File[],
  onProgress: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<UploadResult> {
  const base = DOCUMENT_API[audience];
  const [method, url, expected] =
    mode.kind === 'create'
      ? (['POST', base, 201] as const)
      : mode.kind === 'replace'
        ? (['PUT', `${base}${mode.id}/`, 200] as const)
        : (['POST', `${base}${mode.id}/pages/`, 200] as const);
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, url);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('X-CSRFToken', getCsrfToken());
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(e.loaded / e.total);
    };
    const fail = (status: number, data: ApiErrorBody) => resolve({ ok: false, status, data });
    xhr.onload = () => {
      const body = parseJson(xhr.responseText);
      if (xhr.status === expected && body && typeof body === 'object') {
        onProgress(1);
        resolve({ ok: true, status: xhr.status, data: body as CaseDocumentOut });
        return;
      }
      const data: ApiErrorBody =
        body && typeof body === 'object' && !Array.isArray(body) ? (body as ApiErrorBody) : {};
      if (xhr.status === 413 && !('file' in data)) {
        fail(413, { file: [DOCUMENT_MESSAGES.tooLarge(DEFAULT_MAX_UPLOAD_BYTES)] });
        return;
      }
      fail(xhr.status, data);
    };
    xhr.onerror = () => fail(0, {});
    xhr.onabort = () => fail(0, {});
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(uploadForm(mode, files));
  });
}

/** The first message of a failed upload, in the server's words, or the default text. */
export function uploadErrorText(result: { status: number; data: ApiErrorBody }): string {
  for (const key of ['file', 'document_type', 'confirmations', 'detail', 'non_field_errors']) {
    const v = result.data[key];
    if (typeof v === 'string' && v) return v;
    if (Array.isArray(v) && typeof v[0] === 'string') return v[0];
  }
  if (result.status === 413) return DOCUMENT_MESSAGES.tooLarge(DEFAULT_MAX_UPLOAD_BYTES);
  for (const v of Object.values(result.data)) {
    if (Array.isArray(v) && typeof v[0] === 'string') return v[0];
  }
  return 'An error has occurred';
}
