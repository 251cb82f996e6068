import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import {
  openPglite,
  openPgPool,
  pgDatabase,
  pgliteDatabase,
  servingUrl,
} from '../src/db/connection.js';
import { migrateDatabase, migrationsFolder } from '../src/db/migrate.js';
import { jobKinds } from '../src/jobs/index.js';
import { createQueues } from '../src/platform/jobs.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** PGlite: the data directory of a migrated database (each file's database is a copy). */
    pgliteTemplate: string;
    /** PostgreSQL: name of the migrated template database. */
    pgTemplate: string;
  }
}

/** A hash of the migrations and the post-migration SQL, so templates rebuild when they change. */
function schemaHash(): string {
  const h = createHash('sha256');
  for (const f of readdirSync(migrationsFolder).sort()) {
    if (f.endsWith('.sql')) h.update(readFileSync(join(migrationsFolder, f)));
  }
  for (const f of ['security.ts', 'reference-data.ts', 'migrate.ts', 'queue-schema.ts']) {
    h.update(readFileSync(new URL(`../src/db/${f}`, import.meta.url)));
  }
  // The job kinds' queues are in the template too.
  const jobs = new URL('../src/jobs/', import.meta.url);
  for (const f of readdirSync(jobs).sort()) {
    if (!f.endsWith('.test.ts')) h.update(readFileSync(new URL(f, jobs)));
  }
  return h.digest('hex').slice(0, 12);
}

export function adminUrl(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * RAM the copies may take: a few workers' databases (about 65 MB each) and the template, with
 * room to spare. A container's /dev/shm is often 64 MB: then the temporary folder is used.
 */
const SHM_NEEDED_BYTES = 2 * 1024 ** 3;

/** Where the PGlite templates and the files' copies live: RAM when the machine has enough. */
export function pgliteRoot(): string {
  let shm = false;
  try {
    const s = statfsSync('/dev/shm');
    shm = s.bavail * s.bsize >= SHM_NEEDED_BYTES;
  } catch {
    shm = false;
  }
  return join(shm ? '/dev/shm' : tmpdir(), 'kestrel-test');
}

/** Removes PGlite data directories left by runs that were killed (their process is gone). */
function dropLeftoverDirs(root: string): void {
  for (const name of readdirSync(root)) {
    const pid = Number(/-(\d+)$/.exec(name)?.[1]);
    if (Number.isInteger(pid) && pid > 0 && !isAlive(pid)) {
      rmSync(join(root, name), { recursive: true, force: true });
    }
  }
}

/** Drops test databases left by runs that were killed (their process is gone). */
async function dropLeftovers(admin: pg.Client): Promise<void> {
  const { rows } = await admin.query<{ datname: string }>(
    `select datname from pg_database where datname like 'kestrel\\_t\\_%' or datname like 'kestrel\\_tpl\\_%'`,
  );
  for (const { datname } of rows) {
    const pid = Number(/^kestrel_t_(\d+)_/.exec(datname)?.[1] ?? /_(\d+)$/.exec(datname)?.[1]);
    if (Number.isInteger(pid) && pid > 0 && !isAlive(pid)) {
      await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`).catch(() => undefined);
    }
  }
}

export default async function setup(project: TestProject) {
  const url = process.env.DATABASE_URL;
  const hash = schemaHash();
  if (url) {
    // One template per run (pid) and project (the random part: each vitest project runs this
    // set-up): concurrent runs and projects never share or drop one another's.
    const name = `kestrel_tpl_${hash}_${randomBytes(3).toString('hex')}_${process.pid}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await dropLeftovers(admin);
    await admin.query(`DROP DATABASE IF EXISTS ${name}`);
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    // As the server: migrated by the owner, which also makes the serving login (roles are the
    // cluster's, shared with other runs: made idempotently) that test databases serve through.
    const owner = adminUrl(url, name);
    const db = pgDatabase(openPgPool(servingUrl(owner), 1), openPgPool(owner, 1));
    await migrateDatabase(db);
    await createQueues(db, jobKinds);
    await db.close();
    project.provide('pgTemplate', name);
    project.provide('pgliteTemplate', '');
    return async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name}`);
      await c.end();
    };
  }
  // A migrated data directory that each file's database is a copy of (test/helpers.ts), opened
  // where it lies (PGlite's file system on disk): loading a tar of it into PGlite's in-memory file
  // system cost each file a second of CPU more (writing 1,900 files, 68 MB, through Emscripten's
  // file system). In RAM (/dev/shm) where the machine has it.
  const root = pgliteRoot();
  mkdirSync(root, { recursive: true });
  dropLeftoverDirs(root);
  const dir = join(root, `template-${hash}-${randomBytes(3).toString('hex')}-${process.pid}`);
  const client = await openPglite(dir);
  const db = pgliteDatabase(client);
  await migrateDatabase(db);
  await createQueues(db, jobKinds);
  await client.close();
  project.provide('pgliteTemplate', dir);
  project.provide('pgTemplate', '');
  return () => rmSync(dir, { recursive: true, force: true });
}
