import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { systemActor } from '../../platform/context.js';
import type { DemoSeedContext } from '../../platform/module.js';
import { createImport, importBatch, validateImport } from './imports.service.js';
import { imports } from './imports.table.js';

/** The demo's file: eight people for Acme, three of them with errors. */
export const DEMO_IMPORT_CSV = [
  'First name,Last name,Email,Date of birth,Phone',
  'Harriet,Cole,harriet.cole@example.com,1988-04-12,07911 123456',
  'Imran,Patel,imran.patel@example.com,1991-09-30,',
  'Jade,,jade.nobody@example.com,1979-02-02,',
  'Kofi,Mensah,kofi.mensah@example,1985-06-15,',
  'Lena,Novak,lena.novak@example.com,1993-11-21,07911 123457',
  'Marcus,Reid,marcus.reid@example.com,31/12/1990,',
  'Nadia,Hussain,nadia.hussain@example.com,,',
  'Oscar,Flynn,oscar.flynn@example.com,1982-07-07,',
].join('\r\n');

/**
 * A completed import for Acme (valid rows only): five subjects made, three rows reported (a
 * missing surname, an email without a domain's dot, a date not in YYYY-MM-DD), through the
 * import's own service (the file read by csv-parse, validated and run as the job would).
 */
export async function seedImportDemo(ctx: DemoSeedContext): Promise<void> {
  const { tx, clock } = ctx;
  const ops = ctx.users['ops@kestrel.test'];
  const actor = { ...systemActor, id: ops?.id ?? null, name: 'Olivia Ops', isOps: true };
  const dir = await mkdtemp(join(tmpdir(), 'kestrel-import-demo-'));
  try {
    const path = join(dir, 'acme-new-starters.csv');
    await writeFile(path, DEMO_IMPORT_CSV);
    const created = await createImport(tx, actor, {
      customerId: ctx.customers.acme,
      processId: null,
      mode: 'valid_rows',
      fileName: 'acme-new-starters.csv',
      path,
      kind: 'csv',
    });
    const validated = await validateImport(tx, created);
    const started = new Date(clock.now().getTime() - 2 * 86_400_000);
    const tenant = { ...systemActor, customerId: ctx.customers.acme };
    const serviceCtx = {
      tx,
      actor: tenant,
      clock,
      enqueue: async () => {},
      afterCommit: () => {},
    };
    while ((await importBatch(serviceCtx, { publicUrl: '' }, validated)).rows > 0) {
      // until no valid row is left
    }
    await tx
      .update(imports)
      .set({
        state: 'completed',
        createdAt: started,
        startedAt: started,
        finishedAt: new Date(started.getTime() + 4_000),
      })
      .where(and(eq(imports.customerId, created.customerId), eq(imports.id, created.id)));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
