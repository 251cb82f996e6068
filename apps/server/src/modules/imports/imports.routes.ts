import { Readable } from 'node:stream';
import fastifyMultipart from '@fastify/multipart';
import {
  IMPORT_MODES,
  importOut,
  importPreviewOut,
  importRowOut,
  importSettings,
  pageOut,
} from '@kestrel/domain';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { opsActorOf } from '../../platform/access.js';
import { ValidationError } from '../../platform/errors.js';
import { listPage, pageResponse } from '../../platform/list-builder.js';
import { listQuerySchema } from '../../platform/pagination.js';
import { parseBody } from '../../platform/query-params.js';
import { idParams, parseId } from '../../platform/resource-query.js';
import { readOnly, runInOps } from '../../platform/service-context.js';
import { receiveUpload } from '../case-documents/upload-receive.js';
import { sheetKindOf } from './import-file.js';
import { importJob } from './import-job.js';
import {
  checkStart,
  createImport,
  getImport,
  listImports,
  importOut as presentOne,
  previewRows,
  reportLines,
  rowsOut,
  saveSettings,
  validateImport,
} from './imports.service.js';
import { imports } from './imports.table.js';

const view = {
  access: {
    audience: 'ops' as const,
    permissions: ['customers.ops_access' as const, 'imports.view_import' as const],
  },
};
const add = {
  access: {
    audience: 'ops' as const,
    permissions: ['customers.ops_access' as const, 'imports.add_import' as const],
  },
};

/** The upload's text fields: the customer, a process (optional) and the mode. */
const uploadFields = z.object({
  customer: z.coerce.number().int().positive(),
  process: z
    .string()
    .optional()
    .transform((v) => (v === undefined || v === '' ? null : Number(v)))
    .pipe(z.number().int().positive().nullable()),
  mode: z.enum(IMPORT_MODES).default('all_or_nothing'),
});

const rowsQuery = listQuerySchema.extend({ invalid: z.enum(['true', 'false']).optional() });

/**
 * /api/ops/imports/ (issue 29): imports of subjects from CSV or XLSX, operations staff only
 * (customer staff and subjects 403): upload, mapping and preview, validation, the run (a job)
 * with its progress, the rows' errors and the result report.
 */
export async function importsRoutes(app: FastifyInstance) {
  // only these routes (and the case documents') parse multipart bodies: the plugin is encapsulated
  await app.register(fastifyMultipart, { throwFileSizeLimit: true });
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps = app.deps;
  const ops = <T>(
    request: Parameters<typeof opsActorOf>[0],
    fn: Parameters<typeof runInOps<T>>[2],
    ro = false,
  ) => runInOps(deps, opsActorOf(request), fn, ro ? readOnly : {});

  r.get(
    '/api/ops/imports/',
    {
      schema: {
        tags: ['ops'],
        querystring: listQuerySchema,
        response: { 200: pageOut(importOut) },
      },
      config: view,
    },
    async (request) => {
      const { page, pageSize, offset } = listPage(request.query);
      const { count, results } = await ops(
        request,
        ({ tx }) => listImports(tx, pageSize, offset),
        true,
      );
      return pageResponse(request, '/api/ops/imports/', page, pageSize, count, results);
    },
  );

  r.post(
    '/api/ops/imports/',
    {
      schema: { tags: ['ops'], response: { 201: importOut } },
      config: add,
    },
    async (request, reply) => {
      const { config } = deps;
      // the file streams to a spool file through the size cap (413 as soon as it is crossed)
      const upload = await receiveUpload(request, {
        spoolDir: config.storage.spoolDir,
        maxBytes: config.storage.maxUploadBytes,
        maxPages: 1,
      });
      try {
        const fields = parseBody(uploadFields, upload.fields);
        const file = upload.files[0];
        if (!file) throw ValidationError.of('file', 'Choose a CSV or XLSX file.');
        const kind = sheetKindOf(file.originalName);
        const out = await ops(request, async ({ tx, actor }) => {
          const row = await createImport(tx, actor, {
            customerId: fields.customer,
            processId: fields.process,
            mode: fields.mode,
            fileName: file.originalName,
            path: file.path,
            kind,
          });
          return presentOne(tx, row);
        });
        reply.code(201);
        return out;
      } finally {
        await upload.cleanup();
      }
    },
  );

  r.get(
    '/api/ops/imports/:id/',
    { schema: { tags: ['ops'], params: idParams, response: { 200: importOut } }, config: view },
    async (request) => {
      const id = parseId(request.params.id);
      return ops(request, async ({ tx }) => presentOne(tx, await getImport(tx, id)), true);
    },
  );

  r.get(
    '/api/ops/imports/:id/preview/',
    {
      schema: { tags: ['ops'], params: idParams, response: { 200: importPreviewOut } },
      config: view,
    },
    async (request) => {
      const id = parseId(request.params.id);
      return ops(
        request,
        async ({ tx }) => {
          const row = await getImport(tx, id);
          return { headers: row.headers, mapping: row.mapping, rows: await previewRows(tx, row) };
        },
        true,
      );
    },
  );

  r.put(
    '/api/ops/imports/:id/mapping/',
    {
      schema: {
        tags: ['ops'],
        params: idParams,
        body: importSettings,
        response: { 200: importOut },
      },
      config: add,
    },
    async (request) => {
      const id = parseId(request.params.id);
      return ops(request, async ({ tx }) =>
        presentOne(tx, await saveSettings(tx, await getImport(tx, id, true), request.body)),
      );
    },
  );

  r.post(
    '/api/ops/imports/:id/validate/',
    { schema: { tags: ['ops'], params: idParams, response: { 200: importOut } }, config: add },
    async (request) => {
      const id = parseId(request.params.id);
      return ops(request, async ({ tx }) =>
        presentOne(tx, await validateImport(tx, await getImport(tx, id, true))),
      );
    },
  );

  r.get(
    '/api/ops/imports/:id/rows/',
    {
      schema: {
        tags: ['ops'],
        params: idParams,
        querystring: rowsQuery,
        response: { 200: pageOut(importRowOut) },
      },
      config: view,
    },
    async (request) => {
      const id = parseId(request.params.id);
      const { page, pageSize, offset } = listPage(request.query);
      const { count, results } = await ops(
        request,
        async ({ tx }) =>
          rowsOut(tx, await getImport(tx, id), {
            invalidOnly: request.query.invalid === 'true',
            limit: pageSize,
            offset,
          }),
        true,
      );
      return pageResponse(request, `/api/ops/imports/${id}/rows/`, page, pageSize, count, results);
    },
  );

  r.post(
    '/api/ops/imports/:id/run/',
    { schema: { tags: ['ops'], params: idParams, response: { 202: importOut } }, config: add },
    async (request, reply) => {
      const id = parseId(request.params.id);
      const out = await ops(request, async ({ tx, clock, enqueue }) => {
        const row = await getImport(tx, id, true);
        // a failed run is run again: it goes on from the rows it imported
        if (row.state !== 'failed') checkStart(row);
        const [updated] = await tx
          .update(imports)
          .set({ state: 'running', error: null, startedAt: row.startedAt ?? clock.now() })
          .where(and(eq(imports.customerId, row.customerId), eq(imports.id, row.id)))
          .returning();
        await enqueue(importJob(row.customerId, row.id));
        return presentOne(tx, updated ?? row);
      });
      reply.code(202);
      return out;
    },
  );

  r.get(
    '/api/ops/imports/:id/report/',
    { schema: { tags: ['ops'], params: idParams }, config: view },
    async (request, reply) => {
      const id = parseId(request.params.id);
      const row = await ops(request, ({ tx }) => getImport(tx, id), true);
      const lines = reportLines(row, (fn) => ops(request, ({ tx }) => fn(tx), true));
      const name = `import-${row.id}-report.csv`;
      reply
        .header('Content-Type', 'text/csv; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="${name}"`);
      return reply.send(Readable.from(lines));
    },
  );
}
