import { ROLE_TEMPLATES, userOut } from '@kestrel/domain';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCustomer,
  createProductUser,
  createRole,
  createTestDatabase,
  ManualClock,
} from '../../../../test/helpers.js';
import type { Database } from '../../../db/connection.js';
import { type Actor, systemActor } from '../../../platform/context.js';
import { queueJobs } from '../../../platform/jobs.js';
import { runInTenant } from '../../../platform/service-context.js';
import { auditActions } from '../../../platform/tables/audit.table.js';
import { accountTokens } from '../../../platform/tables/sessions.table.js';
import { productUserRoles, productUsers } from '../users.table.js';
import { checkInvitation, inviteUser, SET_PASSWORD_TTL_MS } from './invite-user.js';

// The command runs on a database and a clock alone: no app, no Fastify request, no AppDeps.
let db: Database;
let drop: () => Promise<void>;
const clock = new ManualClock('2026-03-02T09:00:00Z');
const mail = { publicUrl: 'https://kestrel.test' };
let staff: Actor;
let roleId: number;

beforeAll(async () => {
  ({ db, drop } = await createTestDatabase());
  await db.ownerTransaction(async (tx) => {
    const c = await createCustomer(tx, { name: 'Acme' });
    const u = await createProductUser(tx, { customerId: c.id, username: 'admin@acme.test' });
    roleId = (await createRole(tx, { customerId: c.id, name: 'Clerks', permissions: 'viewer' })).id;
    staff = {
      ...systemActor,
      type: 'ProductUser',
      id: u.id,
      name: 'admin@acme.test',
      customerId: c.id,
      permissions: new Set(ROLE_TEMPLATES.admin),
    };
  });
});
afterAll(() => drop());

const counts = () =>
  db.ownerTransaction(async (tx) => ({
    users: (await tx.select({ id: productUsers.id }).from(productUsers)).length,
    tokens: (await tx.select({ id: accountTokens.id }).from(accountTokens)).length,
    jobs: (await tx.select({ id: queueJobs.id }).from(queueJobs)).length,
    audit: (await tx.select({ id: auditActions.id }).from(auditActions)).length,
  }));

describe('the invite-user command', () => {
  it('creates the user with its roles, token, audit and email job, without any request', async () => {
    const out = await runInTenant({ db, clock }, staff, (ctx) =>
      inviteUser(ctx, mail, {
        email: 'New.Clerk@Acme.test',
        first_name: 'Nia',
        last_name: 'Clerk',
        job_title: 'Clerk',
        roles: [roleId],
        segments: [],
      }),
    );
    expect(userOut.parse(out)).toMatchObject({
      username: 'new.clerk@acme.test',
      email: 'new.clerk@acme.test',
      first_name: 'Nia',
      is_active: true,
      roles: [roleId],
    });
    const seen = await db.ownerTransaction(async (tx) => ({
      row: (await tx.select().from(productUsers).where(eq(productUsers.id, out.id)))[0],
      roles: await tx
        .select({ roleId: productUserRoles.roleId })
        .from(productUserRoles)
        .where(eq(productUserRoles.userId, out.id)),
      token: (await tx.select().from(accountTokens).where(eq(accountTokens.userId, out.id)))[0],
      audit: await tx
        .select({
          verb: auditActions.verb,
          actorId: auditActions.actorId,
          changes: auditActions.changes,
        })
        .from(auditActions)
        .where(
          and(
            eq(auditActions.contentType, 'users.productuser'),
            eq(auditActions.objectId, `${out.id}`),
          ),
        ),
      jobs: await tx.select().from(queueJobs).where(eq(queueJobs.name, 'send-email')),
    }));
    expect(seen.row).toMatchObject({ customerId: staff.customerId, jobTitle: 'Clerk' });
    expect(seen.roles).toEqual([{ roleId }]);
    expect(seen.token).toMatchObject({ purpose: 'reset', userType: 'ProductUser' });
    expect(seen.token?.expiresAt).toEqual(new Date(clock.now().getTime() + SET_PASSWORD_TTL_MS));
    expect(seen.audit).toEqual([{ verb: 'created', actorId: staff.id, changes: out }]);
    expect(seen.jobs).toHaveLength(1);
    expect(seen.jobs[0]).toMatchObject({ state: 'created' });
    expect(seen.jobs[0]?.data).toMatchObject({
      to: 'new.clerk@acme.test',
      subject: 'Your Kestrel Checks account',
      text: expect.stringContaining('https://kestrel.test/auth/set-password?token='),
    });
  });

  it('leaves nothing behind, email job included, when the invitation fails', async () => {
    const before = await counts();
    await expect(
      runInTenant({ db, clock }, staff, (ctx) =>
        inviteUser(ctx, mail, {
          email: 'other@acme.test',
          first_name: 'Oto',
          last_name: 'Other',
          job_title: '',
          roles: [roleId + 1000],
          segments: [],
        }),
      ),
    ).rejects.toMatchObject({ fields: { roles: ['Unknown role.'] } });
    expect(await counts()).toEqual(before);
    // The email is enqueued in the caller's transaction: a later failure drops it with the user.
    await expect(
      runInTenant({ db, clock }, staff, async (ctx) => {
        await inviteUser(ctx, mail, {
          email: 'late@acme.test',
          first_name: 'Lee',
          last_name: 'Late',
          job_title: '',
          roles: [],
          segments: [],
        });
        throw new Error('a later step failed');
      }),
    ).rejects.toThrow('a later step failed');
    expect(await counts()).toEqual(before);
  });

  it('checks before its transaction that the actor acts for a customer and the email is free', async () => {
    await expect(
      checkInvitation({ db, clock }, staff, { email: 'NEW.CLERK@acme.test' }),
    ).rejects.toMatchObject({ fields: { email: [expect.any(String)] } });
    await expect(
      checkInvitation({ db, clock }, { ...staff, customerId: null }, { email: 'x@acme.test' }),
    ).rejects.toMatchObject({ fields: { non_field_errors: [expect.any(String)] } });
    await expect(
      checkInvitation({ db, clock }, staff, { email: 'free@acme.test' }),
    ).resolves.toBeUndefined();
  });
});
