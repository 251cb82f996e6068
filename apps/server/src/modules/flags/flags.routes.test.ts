import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  type Client,
  createAdminAndViewer,
  createCase,
  createCustomer,
  createFlag,
  createSubjectUser,
  login,
  type TestApp,
} from '../../../test/helpers.js';
import { auditActions } from '../../platform/tables/audit.table.js';

let t: TestApp;
let acme: number;
let caseId: number;
let foreignFlag: number;
let admin: Client;
let viewer: Client;

beforeAll(async () => {
  t = await buildTestApp();
  await t.owner(async (tx) => {
    acme = (await createCustomer(tx, { name: 'Acme' })).id;
    const other = (await createCustomer(tx, { name: 'Other' })).id;
    const s = await createSubjectUser(tx, {
      customerId: acme,
      firstName: 'Ada',
      lastName: 'Byron',
    });
    caseId = (await createCase(tx, { customerId: acme, subjectId: s.id })).id;
    await createFlag(tx, { customerId: acme, caseId, message: 'Gap in address history' });
    foreignFlag = (await createFlag(tx, { customerId: other })).id;
    await createAdminAndViewer(tx, acme);
  });
  admin = await login(t.app, 'admin@acme.test');
  viewer = await login(t.app, 'viewer@acme.test');
});
afterAll(() => t.close());

const call = (c: Client, method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: c.headers, ...(payload ? { payload } : {}) });

describe('/api/flags/', () => {
  it('lists the tenant flags with the subject name; active filter; another tenant is 404', async () => {
    const res = await call(viewer, 'GET', '/api/flags/?active=true');
    expect(res.statusCode).toBe(200);
    expect(res.json().results).toHaveLength(1);
    expect(res.json().results[0]).toMatchObject({
      case: caseId,
      subject_name: 'Ada Byron',
      kind: 'rule',
      active: true,
    });
    expect((await call(viewer, 'GET', `/api/flags/${foreignFlag}/`)).statusCode).toBe(404);
    expect(
      (await call(admin, 'POST', `/api/flags/${foreignFlag}/resolve/`, { comment: 'x' }))
        .statusCode,
    ).toBe(404);
  });

  it('raises a flag by hand (flags.change_flag)', async () => {
    expect(
      (await call(viewer, 'POST', '/api/flags/', { case: caseId, message: 'Check this' }))
        .statusCode,
    ).toBe(403);
    expect((await call(admin, 'POST', '/api/flags/', { message: 'Nothing' })).json()).toEqual({
      non_field_errors: ['Give case or subject.'],
    });
    const res = await call(admin, 'POST', '/api/flags/', { case: caseId, message: 'Check this' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      kind: 'manual',
      created_by_name: 'Test User',
      active: true,
    });
    expect((await call(admin, 'GET', '/api/flags/active-count/')).json()).toEqual({ active: 2 });
  });

  it('resolves with a comment, once; audited; the active count drops', async () => {
    const f = await t.owner((tx) =>
      createFlag(tx, { customerId: acme, caseId, message: 'Resolve me' }),
    );
    expect(
      (await call(viewer, 'POST', `/api/flags/${f.id}/resolve/`, { comment: 'ok' })).statusCode,
    ).toBe(403);
    expect((await call(admin, 'POST', `/api/flags/${f.id}/resolve/`, {})).json()).toEqual({
      comment: ['Required'],
    });
    // No body at all reads as `{}` (the contract's prefault), not as a malformed request.
    const bodyless = await call(admin, 'POST', `/api/flags/${f.id}/resolve/`);
    expect(bodyless.statusCode).toBe(400);
    expect(bodyless.json()).toEqual({ comment: ['Required'] });
    const before = (await call(admin, 'GET', '/api/flags/active-count/')).json().active;
    const res = await call(admin, 'POST', `/api/flags/${f.id}/resolve/`, {
      comment: 'Spoke to the subject',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      active: false,
      resolution_comment: 'Spoke to the subject',
      resolved_by_name: 'Test User',
    });
    expect((await call(admin, 'GET', '/api/flags/active-count/')).json().active).toBe(before - 1);
    expect(
      (await call(admin, 'POST', `/api/flags/${f.id}/resolve/`, { comment: 'again' })).json(),
    ).toEqual({
      non_field_errors: ['This flag is already resolved.'],
    });
    const rows = await t.owner((tx) =>
      tx
        .select()
        .from(auditActions)
        .where(
          and(eq(auditActions.contentType, 'flags.flag'), eq(auditActions.objectId, String(f.id))),
        ),
    );
    expect(rows.map((r) => r.verb)).toEqual(['resolved']);
  });
});
