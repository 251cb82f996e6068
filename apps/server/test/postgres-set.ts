// The PostgreSQL set (decision 022): the server test files that run a second time on PostgreSQL
// (`server-pg`, `npm test -- --pg-url URL`). PGlite is PostgreSQL itself (SQL, RLS, roles,
// constraints behave the same); what differs is the driver and the server around it: node-postgres
// (prepared statements, parameters inlined as literals, batched reads, pools, connect timeouts,
// lost connections), several connections at once (locks, SKIP LOCKED, unique races), role and
// settings on pooled connections, the job queue and LISTEN/NOTIFY, roles shared by a cluster.
//
// A test file joins the set by itself with a comment line of its own, best at its top:
//
//   // @postgres: <what it exercises that differs on PostgreSQL>
//
// `grep -rn '@postgres:' apps/server/src apps/server/test` lists the set with the reasons.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The marker line: `// @postgres: <reason>` (the reason is required). */
export const POSTGRES_MARKER = /^\/\/ @postgres:[ \t]*(\S.*)$/m;

/**
 * What only makes sense on PostgreSQL: a file doing this must be in the set (its test guards it).
 * A second server process on the same database, the owner-served database, a test that reads
 * DATABASE_URL to run a PostgreSQL-only part.
 */
export const POSTGRES_ONLY =
  /\.twin\(|\bownerDatabase\(|\bownerServed\(|process\.env\.DATABASE_URL/;

/** A server test file (relative to apps/server, e.g. `src/db/tenancy.test.ts`) and its text. */
export interface TestFile {
  file: string;
  text: string;
}

/** Every test file of the server suite (`src/**` and `test/**`), sorted. */
export function serverTestFiles(root: string): TestFile[] {
  return ['src', 'test'].flatMap((dir) =>
    readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.test.ts'))
      .map((f) => `${dir}/${f.split('\\').join('/')}`)
      .sort()
      .map((file) => ({ file, text: readFileSync(join(root, file), 'utf8') })),
  );
}

/** The reason a file gives for running on PostgreSQL, or null when it is not in the set. */
export function postgresReason(text: string): string | null {
  return POSTGRES_MARKER.exec(text)?.[1]?.trim() ?? null;
}

/** The files of the set with their reasons. */
export function postgresSet(files: readonly TestFile[]): { file: string; reason: string }[] {
  return files.flatMap(({ file, text }) => {
    const reason = postgresReason(text);
    return reason === null ? [] : [{ file, reason }];
  });
}
