import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compileDb, type TxSettings } from '../db/connection.js';
import { ManualClock } from './clock.js';
import { type Actor, systemActor } from './context.js';
import { PermissionDeniedError, ValidationError } from './errors.js';
import { parseBody } from './query-params.js';
import {
  type ContextDeps,
  readOnly,
  runAsSystem,
  runInOps,
  runInTenant,
  SYSTEM_TX,
} from './service-context.js';

/** A database that records the settings of each transaction and the order of events. */
function fakeDeps() {
  const events: string[] = [];
  const settings: TxSettings[] = [];
  const deps: ContextDeps = {
    clock: new ManualClock('2026-03-01T10:00:00Z'),
    db: {
      async transaction(s, fn) {
        settings.push(s);
        events.push('begin');
        const out = await fn(compileDb);
        events.push('commit');
        return out;
      },
    },
  };
  return { deps, events, settings };
}

const staff: Actor = { ...systemActor, type: 'ProductUser', id: 7, name: 'ann', customerId: 3 };
const subject: Actor = { ...staff, type: 'SubjectUser', id: 9 };
const ops: Actor = { ...staff, isOps: true, customerId: null };

describe('the service context', () => {
  it('runs a tenant transaction as the actor, with no request, and the clock', async () => {
    const { deps, settings } = fakeDeps();
    const seen = await runInTenant(deps, subject, async (ctx) => [ctx.actor, ctx.clock.now()]);
    expect(seen).toEqual([subject, new Date('2026-03-01T10:00:00Z')]);
    expect(settings).toEqual([
      { scope: 'tenant', customerId: 3, subjectId: 9, userId: 9, readOnly: false },
    ]);
    await runInTenant(deps, staff, async () => null, readOnly);
    expect(settings[1]).toEqual({
      scope: 'tenant',
      customerId: 3,
      subjectId: null,
      userId: 7,
      readOnly: true,
    });
  });

  it('runs after-commit work once the transaction has committed, and none after a failure', async () => {
    const { deps, events } = fakeDeps();
    await runInTenant(deps, staff, async (ctx) => {
      ctx.afterCommit(() => void events.push('after'));
      events.push('work');
    });
    expect(events).toEqual(['begin', 'work', 'commit', 'after']);
    events.length = 0;
    await expect(
      runInTenant(deps, staff, async (ctx) => {
        ctx.afterCommit(() => void events.push('after'));
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(events).toEqual(['begin']);
  });

  it('opens the ops context for ops staff only', async () => {
    const { deps, settings } = fakeDeps();
    expect(() => runInOps(deps, staff, async () => null)).toThrow(PermissionDeniedError);
    expect(settings).toEqual([]);
    await runInOps(deps, ops, async () => null, readOnly);
    expect(settings).toEqual([{ scope: 'all', customerId: null, userId: 7, readOnly: true }]);
  });

  it('runs as the system across every tenant', async () => {
    const { deps, settings } = fakeDeps();
    const actor = await runAsSystem(deps, async (ctx) => ctx.actor);
    expect(actor).toBe(systemActor);
    expect(settings).toEqual([SYSTEM_TX]);
  });
});

describe('parseBody', () => {
  it('answers the field errors of every issue, a missing value as Required', () => {
    const schema = z.object({ a: z.object({ b: z.string() }), n: z.number().max(2, 'Too big') });
    let caught: unknown;
    try {
      parseBody(schema, { a: {}, n: 5 });
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(ValidationError);
    expect(caught instanceof ValidationError && caught.fields).toEqual({
      'a.b': ['Required'],
      n: ['Too big'],
    });
  });
});
