import { Readable } from 'node:stream';
import { formatDate } from '@kestrel/domain';
import { ZipFile } from 'yazl';
import type { DocumentStorage } from '../../providers/storage/provider.js';
import type { ArchiveFile, SubjectRecord } from './subject-record.js';

/** The archive's file name: `kestrel-data-<date>.zip`. */
export const archiveFileName = (at: Date) => `kestrel-data-${at.toISOString().slice(0, 10)}.zip`;

const name = (s: SubjectRecord['subject']) =>
  [s.first_name, s.middlename, s.last_name].filter(Boolean).join(' ') || '(no name)';

/** The archive's readable summary: each organisation's record, case by case. */
export function archiveSummary(records: SubjectRecord[], at: Date): string {
  const lines = [
    'Your data held by Kestrel',
    `Produced on ${formatDate(at)}.`,
    'data.json holds all of it; the documents folder holds your documents.',
    '',
  ];
  for (const r of records) {
    lines.push(`Organisation: ${r.customer.name}`);
    lines.push(`  Name: ${name(r.subject)}`);
    lines.push(`  Email: ${r.subject.email}`);
    if (r.subject.dob) lines.push(`  Date of birth: ${formatDate(r.subject.dob)}`);
    if (r.subject.phone_number) lines.push(`  Phone: ${r.subject.phone_number}`);
    if (r.cases.length === 0) lines.push('  No cases.');
    for (const c of r.cases) {
      lines.push(`  Case ${c.id} (${c.state_display}), opened ${formatDate(c.created_at)}`);
      for (const a of c.checks) lines.push(`    Check: ${a.check}: ${a.state_display}`);
      for (const k of Object.keys(c.case_data)) lines.push(`    Details: ${k}`);
      for (const x of c.consents) {
        const withdrawn = x.withdrawn_at ? `, withdrawn ${formatDate(x.withdrawn_at)}` : '';
        lines.push(`    Consent: ${x.kind}, given ${formatDate(x.given_at)}${withdrawn}`);
      }
      for (const d of c.documents) {
        lines.push(`    Document: ${d.document_type} (${d.files.length} file(s))`);
      }
    }
    lines.push('');
  }
  return `${lines.join('\n')}\n`;
}

/**
 * The subject access archive as a ZIP stream: data.json, summary.txt and each document page's
 * file, read from storage one at a time as the ZIP is written (a missing file is left empty).
 */
export function subjectArchiveStream(
  storage: DocumentStorage,
  records: SubjectRecord[],
  files: ArchiveFile[],
  at: Date,
): Readable {
  const zip = new ZipFile();
  const mtime = at;
  const json = { generated_at: at.toISOString(), records };
  zip.addBuffer(Buffer.from(JSON.stringify(json, null, 2)), 'data.json', { mtime });
  zip.addBuffer(Buffer.from(archiveSummary(records, at)), 'summary.txt', { mtime });
  for (const f of files) {
    zip.addReadStreamLazy(f.path, { mtime }, (cb) => {
      storage.get(f.key).then(
        (stream) => cb(null, stream ?? Readable.from([])),
        (err: unknown) => cb(err, Readable.from([])),
      );
    });
  }
  zip.end();
  return Readable.from(zip.outputStream);
}
