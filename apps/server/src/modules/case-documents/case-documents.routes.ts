import fastifyMultipart from '@fastify/multipart';
import {
  caseDocumentCreate,
  caseDocumentDownloadQuery,
  caseDocumentListQuery,
  caseDocumentOut,
  caseDocumentPageListOut,
  caseDocumentReject,
  caseDocumentReplace,
  DOCUMENT_MESSAGES,
  noContent,
  type Permission,
} from '@kestrel/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import type { RouteAccess } from '../../platform/access.js';
import { NotFoundError, ValidationError } from '../../platform/errors.js';
import { listPage, pageResponse } from '../../platform/list-builder.js';
import { parseBody } from '../../platform/query-params.js';
import { idParams, parseId } from '../../platform/resource-query.js';
import { readOnly } from '../../platform/service-context.js';
import { runForCaseRequest } from '../../platform/subject-access.js';
import { recordsViews } from '../access-log/access-log.service.js';
import { DOCUMENT_PATHS } from './case-documents.presenter.js';
import {
  changeDocumentPages,
  checkCaseForUpload,
  checkDocumentForUpload,
  createDocument,
  type DocumentAudience,
  deleteDocument,
  documentPage,
  listDocuments,
  retrieveDocument,
  type UploadTarget,
} from './case-documents.service.js';
import type { StoredPage } from './case-documents.table.js';
import { contentDisposition, DOWNLOAD_CSP } from './content-disposition.js';
import { type InspectedPage, inspectFile } from './file-inspect.js';
import { removePages, removeSpooled, storePages } from './page-store.js';
import { rejectDocument } from './reject-document.js';
import { receiveUpload } from './upload-receive.js';

const permit = (p: Permission): { access: RouteAccess } => ({ access: { permissions: [p] } });
const none: { access: RouteAccess } = { access: {} };

/** The three audiences: customer staff and operations (by permission), the subject (own cases). */
const AUDIENCES = [
  { audience: 'staff', read: permit('cases.view_case'), write: permit('cases.change_case') },
  { audience: 'ops', read: permit('cases.view_case'), write: permit('cases.change_case') },
  { audience: 'subject', read: none, write: none },
] as const satisfies readonly {
  audience: DocumentAudience;
  read: { access: RouteAccess };
  write: { access: RouteAccess };
}[];

/** Where an upload goes: known from the route's id, or from the form's fields (a new document). */
type UploadTargetOf<F> =
  | { before: () => Promise<UploadTarget> }
  | { fromFields: (fields: F) => Promise<UploadTarget> };

/**
 * The upload pipeline of a route: the multipart body spooled under the cap (413 while
 * streaming), the form fields parsed, the case checked for this audience (404/403 before
 * anything is stored), every file's type decided by its content (no thumbnail: the commit
 * enqueues the document-thumbnails job), the pages stored, then `commit` (the database write,
 * its audit and the job). A failed commit removes the stored pages; the spool is always removed.
 */
async function withUpload<S extends z.ZodType, T>(
  request: FastifyRequest,
  fieldsSchema: S,
  target: UploadTargetOf<z.output<S>>,
  commit: (fields: z.output<S>, pages: StoredPage[]) => Promise<T>,
): Promise<T> {
  const { config, storage } = request.server.deps;
  // a document's own routes are checked before a byte of the body is read
  const known = 'before' in target ? await target.before() : null;
  const upload = await receiveUpload(request, {
    spoolDir: config.storage.spoolDir,
    maxBytes: config.storage.maxUploadBytes,
    maxPages: config.storage.maxPages,
  });
  const inspected: InspectedPage[] = [];
  try {
    const fields = parseBody(fieldsSchema, upload.fields);
    if (upload.files.length === 0) throw ValidationError.of('file', DOCUMENT_MESSAGES.noFile);
    const where = known ?? ('fromFields' in target ? await target.fromFields(fields) : null);
    if (!where) throw new NotFoundError();
    for (const f of upload.files) inspected.push(await inspectFile(f));
    const pages = await storePages(storage, where, inspected);
    try {
      return await commit(fields, pages);
    } catch (err) {
      await removePages(storage, pages);
      throw err;
    }
  } finally {
    await removeSpooled(inspected);
    await upload.cleanup();
  }
}

function isInline(value: string | undefined): boolean {
  return value === 'true' || value === '1';
}

/** Streams a stored object with the headers every document download carries. */
async function sendObject(
  reply: FastifyReply,
  deps: AppDeps,
  key: string,
  headers: { contentType: string; size: number | null; disposition: string },
) {
  const body = await deps.storage.get(key);
  if (!body) throw new NotFoundError();
  reply
    .header('content-type', headers.contentType)
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', DOWNLOAD_CSP)
    .header('content-disposition', headers.disposition)
    .header('cross-origin-resource-policy', 'same-origin')
    .header('cache-control', 'private, no-store');
  if (headers.size !== null) reply.header('content-length', String(headers.size));
  return reply.send(body);
}

/** Case documents for the three audiences (spec point 7), uploads as multipart/form-data. */
export async function caseDocumentsRoutes(app: FastifyInstance): Promise<void> {
  // Only these routes parse multipart bodies (the plugin is encapsulated in this module).
  await app.register(fastifyMultipart, { throwFileSizeLimit: true });
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['case documents'];
  const maxPages = app.deps.config.storage.maxPages;
  for (const { audience, read, write } of AUDIENCES) {
    const collection = DOCUMENT_PATHS[audience];
    const item = `${collection}:id/`;

    r.get(
      collection,
      { schema: { tags, response: { 200: caseDocumentPageListOut } }, config: read },
      async (request) => {
        const q = parseBody(caseDocumentListQuery, request.query);
        const { page, pageSize, offset } = listPage({ page: q.page, page_size: q.page_size });
        const { count, results } = await runForCaseRequest(
          request,
          audience,
          { case: q.case },
          (ctx) => listDocuments(ctx, audience, q, { offset, pageSize }),
          readOnly,
        );
        if (results.length === 0 && page > 1) throw NotFoundError.page();
        return pageResponse(request, collection, page, pageSize, count, results);
      },
    );

    r.post(
      collection,
      { schema: { tags, response: { 201: caseDocumentOut } }, config: write },
      async (request, reply) => {
        const out = await withUpload(
          request,
          caseDocumentCreate,
          {
            fromFields: (f) =>
              runForCaseRequest(
                request,
                audience,
                { case: f.case, table: 'case_documents' },
                (ctx) => checkCaseForUpload(ctx, audience, f.case),
                readOnly,
              ),
          },
          (f, pages) =>
            runForCaseRequest(request, audience, { case: f.case, table: 'case_documents' }, (ctx) =>
              createDocument(ctx, audience, f, pages),
            ),
        );
        return reply.code(201).send(out);
      },
    );

    r.get(
      item,
      { schema: { tags, params: idParams, response: { 200: caseDocumentOut } }, config: read },
      async (request) => {
        const id = parseId(request.params.id);
        return runForCaseRequest(
          request,
          audience,
          { table: 'case_documents', id },
          (ctx) => retrieveDocument(ctx, audience, id),
          readOnly,
        );
      },
    );

    for (const [method, url, mode] of [
      ['put', item, 'replace'],
      ['post', `${item}pages/`, 'add'],
    ] as const) {
      r[method](
        url,
        { schema: { tags, params: idParams, response: { 200: caseDocumentOut } }, config: write },
        async (request) => {
          const id = parseId(request.params.id);
          const { storage } = request.server.deps;
          return withUpload(
            request,
            caseDocumentReplace,
            {
              before: () =>
                runForCaseRequest(
                  request,
                  audience,
                  { table: 'case_documents', id },
                  (ctx) => checkDocumentForUpload(ctx, audience, id),
                  readOnly,
                ),
            },
            async (f, pages) => {
              const { out, dropped } = await runForCaseRequest(
                request,
                audience,
                { table: 'case_documents', id },
                (ctx) => changeDocumentPages(ctx, audience, id, f, pages, mode, maxPages),
              );
              await removePages(storage, dropped);
              return out;
            },
          );
        },
      );
    }

    r.delete(
      item,
      { schema: { tags, params: idParams, response: { 204: noContent } }, config: write },
      async (request, reply) => {
        const id = parseId(request.params.id);
        const pages = await runForCaseRequest(
          request,
          audience,
          { table: 'case_documents', id },
          (ctx) => deleteDocument(ctx, audience, id),
        );
        await removePages(request.server.deps.storage, pages);
        return reply.code(204).send();
      },
    );

    // staff and operations reject a document with a reason; the subject is asked to replace it
    if (audience !== 'subject') {
      r.post(
        `${item}reject/`,
        {
          schema: {
            tags,
            params: idParams,
            body: caseDocumentReject,
            response: { 200: caseDocumentOut },
          },
          config: permit('cases.change_caseactivity'),
        },
        async (request) => {
          const id = parseId(request.params.id);
          const body = parseBody(caseDocumentReject, request.body);
          return runForCaseRequest(request, audience, { table: 'case_documents', id }, (ctx) =>
            rejectDocument(ctx, id, body),
          );
        },
      );
    }

    r.get(
      `${item}download/`,
      { schema: { tags, params: idParams }, config: read, onSend: recordsViews('document') },
      async (request, reply) => {
        const id = parseId(request.params.id);
        const q = parseBody(caseDocumentDownloadQuery, request.query);
        const page = await runForCaseRequest(
          request,
          audience,
          { table: 'case_documents', id },
          (ctx) => documentPage(ctx, audience, id, q.page ?? 1),
          readOnly,
        );
        return sendObject(reply, request.server.deps, page.key, {
          contentType: page.contentType,
          size: page.size,
          disposition: contentDisposition(page.originalName, page.extension, isInline(q.inline)),
        });
      },
    );

    r.get(
      `${item}thumbnail/`,
      { schema: { tags, params: idParams }, config: read },
      async (request, reply) => {
        const id = parseId(request.params.id);
        const q = parseBody(caseDocumentDownloadQuery, request.query);
        const page = await runForCaseRequest(
          request,
          audience,
          { table: 'case_documents', id },
          (ctx) => documentPage(ctx, audience, id, q.page ?? 1),
          readOnly,
        );
        // pending or none: nothing to show yet (the page's `preview` says which)
        if ((page.preview ?? 'ready') !== 'ready') {
          throw new NotFoundError(DOCUMENT_MESSAGES.noPreview);
        }
        return sendObject(reply, request.server.deps, page.thumbnailKey, {
          contentType: 'image/jpeg',
          size: null,
          disposition: contentDisposition(`${page.originalName}-thumbnail`, 'jpg', true),
        });
      },
    );
  }
}
