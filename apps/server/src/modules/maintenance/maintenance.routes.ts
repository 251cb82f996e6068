import { maintenanceWindowInput, maintenanceWindowRecordOut } from '@kestrel/domain';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { ValidationError } from '../../platform/errors.js';
import { registerResource } from '../../platform/resource-router.js';
import { maintenanceWindows } from '../../platform/tables/maintenance.table.js';

type Row = typeof maintenanceWindows.$inferSelect;
const present = (w: Row) => ({
  id: w.id,
  start: w.start.toISOString(),
  end: w.end.toISOString(),
  warning_start: w.warningStart.toISOString(),
  reason: w.reason,
});

const body = maintenanceWindowInput;

function checkOrder(start: Date, end: Date, warningStart: Date) {
  if (end <= start) throw ValidationError.of('end', 'End must be after start.');
  if (warningStart > start)
    throw ValidationError.of('warning_start', 'Warning start must not be after start.');
}

/** /api/ops/maintenance-windows/ (ops staff schedule outages). */
export async function maintenanceRoutes(app: FastifyInstance) {
  // After the change commits: a reload before it would cache the old windows again.
  const changed = (ctx: { afterCommit: (fn: () => Promise<void>) => void }) =>
    ctx.afterCommit(() => app.deps.maintenance.changed());
  registerResource(app, {
    path: '/api/ops/maintenance-windows/',
    table: maintenanceWindows,
    id: maintenanceWindows.id,
    contentType: 'maintenance.maintenancewindow',
    context: 'ops',
    access: { write: { permissions: ['maintenance.change_maintenancewindow'] } },
    present,
    output: maintenanceWindowRecordOut,
    repr: (w) => `${w.start.toISOString()} – ${w.end.toISOString()}`,
    ordering: { start: maintenanceWindows.start, end: maintenanceWindows.end },
    defaultOrdering: '-start',
    create: {
      body,
      run: async (ctx, d) => {
        const { tx, actor } = ctx;
        const v = {
          start: new Date(d.start),
          end: new Date(d.end),
          warningStart: new Date(d.warning_start),
        };
        checkOrder(v.start, v.end, v.warningStart);
        const [row] = await tx
          .insert(maintenanceWindows)
          .values({ ...v, reason: d.reason, createdBy: actor.id })
          .returning();
        if (!row) throw new Error('insert returned nothing');
        changed(ctx);
        return row;
      },
    },
    update: {
      body,
      run: async (ctx, existing, d) => {
        const { tx } = ctx;
        const v = {
          start: d.start ? new Date(d.start) : existing.start,
          end: d.end ? new Date(d.end) : existing.end,
          warningStart: d.warning_start ? new Date(d.warning_start) : existing.warningStart,
        };
        checkOrder(v.start, v.end, v.warningStart);
        const [row] = await tx
          .update(maintenanceWindows)
          .set({ ...v, ...(d.reason !== undefined ? { reason: d.reason } : {}) })
          .where(eqId(existing.id))
          .returning();
        if (!row) throw new Error('update returned nothing');
        changed(ctx);
        return row;
      },
    },
    remove: {
      run: async (ctx, existing) => {
        await ctx.tx.delete(maintenanceWindows).where(eqId(existing.id));
        changed(ctx);
      },
    },
  });
}

const eqId = (id: number) => eq(maintenanceWindows.id, id);
