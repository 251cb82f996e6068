import { PAYMENT_METHOD_MESSAGES } from '@kestrel/domain';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  type Client,
  createAdminAndViewer,
  createCase,
  createCustomer,
  createSubjectUser,
  login,
  type TestApp,
} from '../../../test/helpers.js';
import { auditActions } from '../../platform/tables/audit.table.js';
import { outboxEmails } from '../../platform/tables/outbox.table.js';

// POST /api/subjects/{id}/resend-invitation/ (issue 26): a person invited but without an account
// yet is sent a fresh claim link, from the subject's page or the case.
let t: TestApp;
let acme: number;
let invited: number;
let claimed: number;
let otherSubject: number;
let admin: Client;
let viewer: Client;

beforeAll(async () => {
  t = await buildTestApp();
  await t.owner(async (tx) => {
    acme = (await createCustomer(tx, { name: 'Acme' })).id;
    const other = (await createCustomer(tx, { name: 'Other' })).id;
    await createAdminAndViewer(tx, acme);
    invited = (
      await createSubjectUser(tx, {
        customerId: acme,
        email: 'invited@example.test',
        firstName: 'Ivy',
        password: null,
      })
    ).id;
    claimed = (await createSubjectUser(tx, { customerId: acme, email: 'has@example.test' })).id;
    otherSubject = (
      await createSubjectUser(tx, {
        customerId: other,
        email: 'theirs@example.test',
        password: null,
      })
    ).id;
  });
  admin = await login(t.app, 'admin@acme.test');
  viewer = await login(t.app, 'viewer@acme.test');
});
afterAll(() => t.close());

const resend = (c: Client, id: number) =>
  t.app.inject({
    method: 'POST',
    url: `/api/subjects/${id}/resend-invitation/`,
    headers: c.headers,
    payload: {},
  });
const mailsTo = (to: string) =>
  t.owner((tx) => tx.select().from(outboxEmails).where(eq(outboxEmails.to, to)));
const audits = (id: number) =>
  t.owner((tx) =>
    tx
      .select()
      .from(auditActions)
      .where(
        and(
          eq(auditActions.contentType, 'subjects.subject'),
          eq(auditActions.objectId, String(id)),
          eq(auditActions.verb, 'invitation_sent'),
        ),
      ),
  );

describe('POST /api/subjects/{id}/resend-invitation/', () => {
  it('emails a fresh claim link, audited', async () => {
    const res = await resend(admin, invited);
    expect([res.statusCode, res.json()]).toEqual([200, { detail: 'Invitation sent' }]);
    await t.settle(); // the email is a job of the request's transaction
    const mails = await mailsTo('invited@example.test');
    expect(mails).toHaveLength(1);
    expect(mails[0]?.text).toContain('/auth/claim-account?token=');
    expect(mails[0]?.text).toContain('Hello Ivy,');
    const rows = await audits(invited);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.customerId).toBe(acme);
  });

  it('refuses a person who has an account already (400), with nothing sent', async () => {
    const res = await resend(admin, claimed);
    expect([res.statusCode, res.json()]).toEqual([
      400,
      { non_field_errors: ['This person has claimed their account already.'] },
    ]);
    await t.settle();
    expect(await mailsTo('has@example.test')).toHaveLength(0);
  });

  it('needs the change-subject permission (403), and another customer’s subject is 404', async () => {
    expect((await resend(viewer, invited)).statusCode).toBe(403);
    expect((await resend(admin, otherSubject)).statusCode).toBe(404);
    await t.settle();
    expect(await mailsTo('theirs@example.test')).toHaveLength(0);
  });

  it('sends at most three in the rate-limit window per person (then 429)', async () => {
    // one sent above: two more, then refused
    for (let i = 0; i < 2; i++) expect((await resend(admin, invited)).statusCode).toBe(200);
    const refused = await resend(admin, invited);
    expect(refused.statusCode).toBe(429);
    await t.settle();
    expect(await mailsTo('invited@example.test')).toHaveLength(3);
    expect(await audits(invited)).toHaveLength(3);
  });

  it('refuses while the person’s case awaits its payment (400), unless another open case awaits them', async () => {
    const held = await t.owner(async (tx) => {
      const id = (
        await createSubjectUser(tx, {
          customerId: acme,
          email: 'held@example.test',
          password: null,
        })
      ).id;
      await createCase(tx, { customerId: acme, subjectId: id, state: 'awaiting-payment' });
      // a finished or archived case is no reason to invite them
      await createCase(tx, { customerId: acme, subjectId: id, state: 'cancelled' });
      await createCase(tx, { customerId: acme, subjectId: id, archivedAt: new Date() });
      return id;
    });
    const refused = await resend(admin, held);
    expect([refused.statusCode, refused.json()]).toEqual([
      400,
      { non_field_errors: [PAYMENT_METHOD_MESSAGES.invitationAwaitsPayment] },
    ]);
    await t.settle();
    expect(await mailsTo('held@example.test')).toHaveLength(0);
    expect(await audits(held)).toHaveLength(0);
    // once another case of theirs waits for them (not held), the invitation is for that one
    await t.owner((tx) => createCase(tx, { customerId: acme, subjectId: held }));
    const sent = await resend(admin, held);
    expect(sent.statusCode).toBe(200);
    await t.settle();
    expect(await mailsTo('held@example.test')).toHaveLength(1);
  });
});
