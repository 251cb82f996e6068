import { asc, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf } from '../../platform/access.js';
import { recordAudit } from '../../platform/audit.js';
import { NotFoundError } from '../../platform/errors.js';
import { idParams, parseId } from '../../platform/resource-query.js';
import { runAsSystem, runInTenant } from '../../platform/service-context.js';
import { subjectLogin } from '../../platform/subject-access.js';
import type { DocumentStorage } from '../../providers/storage/provider.js';
import { SUBJECT_CT } from '../subjects/subjects.service.js';
import { subjects } from '../subjects/subjects.table.js';
import { archiveFileName, subjectArchiveStream } from './subject-archive.js';
import { type ArchiveFile, collectSubjectRecord, type SubjectRecord } from './subject-record.js';

const tags = ['data requests'];

function sendArchive(
  reply: FastifyReply,
  storage: DocumentStorage,
  records: SubjectRecord[],
  files: ArchiveFile[],
  at: Date,
) {
  reply
    .header('content-type', 'application/zip')
    .header('content-disposition', `attachment; filename="${archiveFileName(at)}"`)
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private, no-store');
  return reply.send(subjectArchiveStream(storage, records, files, at));
}

/**
 * Subject access (issue 34): everything Kestrel holds about a person as one ZIP (data.json,
 * summary.txt, the documents' files). Each archive produced is audited: who, for whom.
 */
export async function dataArchiveRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps = app.deps;

  // a customer's staff, for a subject of theirs (RLS: their tenant; a limited user's segments)
  r.get(
    '/api/subjects/:id/data-archive/',
    {
      schema: { tags, params: idParams },
      config: { access: { permissions: ['subjects.view_subject', 'cases.view_case'] } },
    },
    async (request, reply) => {
      const id = parseId(request.params.id);
      const actor = actorOf(request);
      const customerId = actor.customerId;
      if (customerId === null) throw new NotFoundError();
      const got = await runInTenant(deps, actor, async ({ tx, clock }) => {
        const found = await collectSubjectRecord(tx, customerId, id);
        if (!found) throw new NotFoundError();
        await recordAudit(tx, actor, {
          verb: 'data_archive_downloaded',
          contentType: SUBJECT_CT,
          objectId: id,
          objectRepr: `Data archive of subject ${id}`,
          changes: { archive: 'subject access', documents: found.files.length },
        });
        return { ...found, at: clock.now() };
      });
      return sendArchive(reply, deps.storage, [got.record], got.files, got.at);
    },
  );

  // the subject, for itself: its record at every customer holding it (its login links them)
  r.get(
    '/api/s/data-archive/',
    { schema: { tags }, config: { access: { audience: 'subject' } } },
    async (request, reply) => {
      const actor = actorOf(request);
      const login = subjectLogin(actor);
      const got = await runAsSystem(
        deps,
        async ({ tx, clock }) => {
          const own = await tx
            .select({ customerId: subjects.customerId, id: subjects.id })
            .from(subjects)
            .where(eq(subjects.userId, login))
            .orderBy(asc(subjects.customerId), asc(subjects.id));
          const records: SubjectRecord[] = [];
          const files: ArchiveFile[] = [];
          for (const s of own) {
            const found = await collectSubjectRecord(tx, s.customerId, s.id);
            if (!found) continue;
            records.push(found.record);
            files.push(...found.files);
            await recordAudit(tx, actor, {
              verb: 'data_archive_downloaded',
              contentType: SUBJECT_CT,
              objectId: s.id,
              objectRepr: `Data archive of subject ${s.id} (by the subject)`,
              changes: { archive: 'subject access', documents: found.files.length },
              customerId: s.customerId,
            });
          }
          return { records, files, at: clock.now() };
        },
        actor,
      );
      return sendArchive(reply, deps.storage, got.records, got.files, got.at);
    },
  );
}
