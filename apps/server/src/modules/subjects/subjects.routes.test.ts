import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  type Client,
  createAdminAndViewer,
  createCase,
  createCustomer,
  createFlag,
  createProductUser,
  createSubjectUser,
  login,
  type TestApp,
} from '../../../test/helpers.js';
import { auditActions } from '../../platform/tables/audit.table.js';
import { cases } from '../cases/cases.table.js';
import { flags } from '../flags/flags.table.js';

let t: TestApp;
let acme: number;
let plain: number;
let foreignSubject: number;
let admin: Client;
let viewer: Client;
let plainAdmin: Client;

beforeAll(async () => {
  t = await buildTestApp();
  await t.owner(async (tx) => {
    acme = (await createCustomer(tx, { name: 'Acme', entitlements: ['subject_dedup'] })).id;
    plain = (await createCustomer(tx, { name: 'Plain' })).id;
    foreignSubject = (
      await createSubjectUser(tx, { customerId: plain, email: 'theirs@example.test' })
    ).id;
    await createAdminAndViewer(tx, acme);
    await createProductUser(tx, {
      customerId: plain,
      username: 'admin@plain.test',
      roles: ['admin'],
    });
  });
  admin = await login(t.app, 'admin@acme.test');
  viewer = await login(t.app, 'viewer@acme.test');
  plainAdmin = await login(t.app, 'admin@plain.test');
});
afterAll(() => t.close());

const call = (c: Client, method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: c.headers, ...(payload ? { payload } : {}) });
const verbs = (id: number) =>
  t.owner(async (tx) =>
    (
      await tx
        .select()
        .from(auditActions)
        .where(
          and(
            eq(auditActions.contentType, 'subjects.subject'),
            eq(auditActions.objectId, String(id)),
          ),
        )
    ).map((a) => a.verb),
  );

describe('/api/subjects/', () => {
  it('adds a subject (no account yet); audited; email unique', async () => {
    const res = await call(admin, 'POST', '/api/subjects/', {
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: 'Ada@Example.test',
      dob: '1990-12-10',
      phone_number: '07911 123456',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      email: 'ada@example.test',
      has_account: false,
      is_archived: false,
      open_cases: 0,
      dob: '1990-12-10',
    });
    expect(await verbs(res.json().id)).toEqual(['created']);
    const again = await call(admin, 'POST', '/api/subjects/', {
      first_name: 'A',
      last_name: 'B',
      email: 'ada@example.test',
    });
    expect(again.json()).toEqual({ email: ['A subject with this email already exists.'] });
  });

  it('validates with the domain rules; a viewer may not add', async () => {
    const bad = await call(admin, 'POST', '/api/subjects/', {
      first_name: 'J0hn',
      last_name: '',
      email: 'x',
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json()).sort()).toEqual(['email', 'first_name', 'last_name']);
    expect(
      (
        await call(viewer, 'POST', '/api/subjects/', {
          first_name: 'A',
          last_name: 'B',
          email: 'v@example.test',
        })
      ).statusCode,
    ).toBe(403);
  });

  it('lists with search and ordering; another tenant is 404', async () => {
    await t.owner((tx) =>
      createSubjectUser(tx, {
        customerId: acme,
        firstName: 'Grace',
        lastName: 'Hopper',
        email: 'grace@example.test',
      }),
    );
    const res = await call(viewer, 'GET', '/api/subjects/?search=hop');
    expect(res.json().results.map((s: { email: string }) => s.email)).toEqual([
      'grace@example.test',
    ]);
    expect((await call(viewer, 'GET', '/api/subjects/?search=grace%20h')).json().count).toBe(1);
    const all = await call(viewer, 'GET', '/api/subjects/?ordering=-last_name');
    expect(all.json().results.map((s: { last_name: string }) => s.last_name)).toEqual([
      'Lovelace',
      'Hopper',
    ]);
    expect((await call(viewer, 'GET', `/api/subjects/${foreignSubject}/`)).statusCode).toBe(404);
    expect(
      (await call(viewer, 'GET', `/api/subjects/${foreignSubject}/consents/`)).statusCode,
    ).toBe(404);
  });

  it('updates, and archives only without open cases (subjects.archive)', async () => {
    const s = await t.owner((tx) =>
      createSubjectUser(tx, { customerId: acme, email: 'arch@example.test', password: null }),
    );
    const upd = await call(admin, 'PATCH', `/api/subjects/${s.id}/`, {
      phone_number: '+447911123456',
    });
    expect(upd.statusCode).toBe(200);
    expect(upd.json().phone_number).toBe('+447911123456');
    const c = await t.owner((tx) => createCase(tx, { customerId: acme, subjectId: s.id }));
    expect((await call(admin, 'POST', `/api/subjects/${s.id}/archive/`)).json()).toEqual({
      non_field_errors: ['A subject with open cases cannot be archived.'],
    });
    await t.owner((tx) => tx.update(cases).set({ state: 'cancelled' }).where(eq(cases.id, c.id)));
    expect((await call(viewer, 'POST', `/api/subjects/${s.id}/archive/`)).statusCode).toBe(403);
    const res = await call(admin, 'POST', `/api/subjects/${s.id}/archive/`);
    expect(res.statusCode).toBe(200);
    expect(res.json().is_archived).toBe(true);
    expect(await verbs(s.id)).toEqual(['updated', 'archived']);
    const listed = await call(viewer, 'GET', '/api/subjects/?is_archived=true');
    expect(listed.json().results.map((x: { id: number }) => x.id)).toEqual([s.id]);
    // an archived subject's consents still read (none given here)
    expect((await call(viewer, 'GET', `/api/subjects/${s.id}/consents/`)).json()).toEqual({
      count: 0,
      next: null,
      previous: null,
      results: [],
    });
  });
});

describe('duplicates and merge (subject_dedup)', () => {
  it('finds likely duplicates by name and dob, and by email; merges cases and flags', async () => {
    const [a, b, c] = await t.owner(async (tx) => {
      const a = await createSubjectUser(tx, {
        customerId: acme,
        firstName: 'Kim',
        lastName: 'Lee',
        dob: '1980-01-01',
        email: 'kim.lee@example.test',
      });
      const b = await createSubjectUser(tx, {
        customerId: acme,
        firstName: 'KIM',
        lastName: 'lee',
        dob: '1980-01-01',
        email: 'kimlee+x@example.test',
        password: null,
      });
      const c = await createSubjectUser(tx, {
        customerId: acme,
        firstName: 'Other',
        lastName: 'Person',
        dob: '1970-01-01',
        email: 'k.i.m.lee@example.test',
      });
      await createCase(tx, { customerId: acme, subjectId: b.id });
      await createFlag(tx, { customerId: acme, subjectId: b.id });
      return [a, b, c];
    });
    const res = await call(viewer, 'GET', '/api/subjects/duplicates/');
    expect(res.statusCode).toBe(200);
    const pairs = res
      .json()
      .results.map(
        (p: { subject: { id: number }; duplicate: { id: number }; reasons: string[] }) => [
          p.subject.id,
          p.duplicate.id,
          p.reasons,
        ],
      );
    expect(pairs).toEqual([
      [a.id, b.id, ['name_dob', 'email']],
      [a.id, c.id, ['email']],
      [b.id, c.id, ['email']],
    ]);
    expect((await call(viewer, 'GET', `/api/subjects/${c.id}/duplicates/`)).json().count).toBe(2);
    expect((await call(plainAdmin, 'GET', '/api/subjects/duplicates/')).statusCode).toBe(403);
    expect(
      (await call(viewer, 'POST', `/api/subjects/${a.id}/merge/`, { duplicate: b.id })).statusCode,
    ).toBe(403);
    expect(
      (await call(admin, 'POST', `/api/subjects/${a.id}/merge/`, { duplicate: a.id })).statusCode,
    ).toBe(400);
    expect(
      (await call(admin, 'POST', `/api/subjects/${a.id}/merge/`, { duplicate: foreignSubject }))
        .statusCode,
    ).toBe(400);
    const merged = await call(admin, 'POST', `/api/subjects/${a.id}/merge/`, { duplicate: b.id });
    expect(merged.statusCode).toBe(200);
    expect(merged.json()).toMatchObject({ id: a.id, open_cases: 1 });
    const moved = await t.owner(async (tx) => ({
      cases: await tx.select().from(cases).where(eq(cases.subjectId, a.id)),
      flags: await tx.select().from(flags).where(eq(flags.subjectId, a.id)),
    }));
    expect(moved.cases).toHaveLength(1);
    expect(moved.flags).toHaveLength(1);
    expect((await call(viewer, 'GET', `/api/subjects/${b.id}/`)).json().is_archived).toBe(true);
    expect(await verbs(b.id)).toContain('merged');
  });
});

describe('one person, several customers', () => {
  it('email is unique within a customer, not across: two customers hold one person, one login', async () => {
    // theirs@example.test is Plain's subject; Acme may hold the same person too
    const res = await call(admin, 'POST', '/api/subjects/', {
      first_name: 'Theo',
      last_name: 'Ther',
      email: 'THEIRS@example.test',
    });
    expect(res.statusCode).toBe(201);
    // The person claimed an account through Plain: not Acme's to know until it is used with Acme.
    expect(res.json()).toMatchObject({ email: 'theirs@example.test', has_account: false });
    expect(res.json().id).not.toBe(foreignSubject);
    const clash = await call(plainAdmin, 'POST', '/api/subjects/', {
      first_name: 'Theo',
      last_name: 'Ther',
      email: 'theirs@example.test',
    });
    expect(clash.json()).toEqual({ email: ['A subject with this email already exists.'] });
    const { subjects } = await import('./subjects.table.js');
    const records = await t.owner((tx) =>
      tx.select().from(subjects).where(eq(subjects.email, 'theirs@example.test')),
    );
    expect(records).toHaveLength(2);
    expect(new Set(records.map((r) => r.userId)).size).toBe(1);
    // each customer sees only its own record, with its own details
    const mine = await call(admin, 'GET', '/api/subjects/?search=theirs');
    expect(mine.json().results.map((x: { id: number }) => x.id)).toEqual([res.json().id]);
    const theirs = await call(plainAdmin, 'GET', `/api/subjects/${foreignSubject}/`);
    expect(theirs.json()).toMatchObject({ first_name: 'Sam' });
    expect((await call(plainAdmin, 'GET', `/api/subjects/${res.json().id}/`)).statusCode).toBe(404);
    // changing the address within a customer clashes only with that customer's subjects
    const moved = await call(admin, 'PATCH', `/api/subjects/${res.json().id}/`, {
      email: 'theo.new@example.test',
    });
    expect(moved.statusCode).toBe(200);
    expect(moved.json()).toMatchObject({ email: 'theo.new@example.test', has_account: false });
  });

  it('has_account says only what this customer knows: the account used with it, not elsewhere', async () => {
    await t.owner((tx) =>
      createSubjectUser(tx, { customerId: plain, email: 'pat.elsewhere@example.test' }),
    );
    const added = await call(admin, 'POST', '/api/subjects/', {
      first_name: 'Pat',
      last_name: 'Elsewhere',
      email: 'pat.elsewhere@example.test',
    });
    expect(added.statusCode).toBe(201);
    // claimed through Plain: nothing Acme may learn from
    expect(added.json().has_account).toBe(false);
    const listed = await call(admin, 'GET', '/api/subjects/?email=pat.elsewhere@example.test');
    expect(listed.json().results[0].has_account).toBe(false);
    // the person signs in; the session acts for Acme (the customer that took them on last)
    await login(t.app, 'pat.elsewhere@example.test');
    const after = await call(admin, 'GET', `/api/subjects/${added.json().id}/`);
    expect(after.json().has_account).toBe(true);
  });

  it('filters by field name: email, first_name, last_name (any case) and dob', async () => {
    const add = (first: string, last: string, email: string, dob: string) =>
      call(admin, 'POST', '/api/subjects/', { first_name: first, last_name: last, email, dob });
    const a = (await add('Ottoline', 'Quint', 'ottoline@navy.test', '1906-12-09')).json().id;
    const b = (await add('Ottoline', 'Rook', 'rook@monaco.test', '1929-11-12')).json().id;
    const ids = async (qs: string) =>
      (await call(viewer, 'GET', `/api/subjects/?${qs}`))
        .json()
        .results.map((x: { id: number }) => x.id)
        .sort();
    expect(await ids('email=OTTOLINE@navy.test')).toEqual([a]);
    expect(await ids('first_name=ottoline')).toEqual([a, b].sort());
    expect(await ids('first_name=ottoline&last_name=ROOK')).toEqual([b]);
    expect(await ids('dob=1906-12-09')).toEqual([a]);
    expect(await ids('email=nobody@navy.test')).toEqual([]);
    // free text also finds an email's domain; a leading @ looks at domains only
    expect(await ids('search=monaco')).toEqual([b]);
    expect(await ids('search=%40navy.te')).toEqual([a]);
    expect(await ids('search=%40ottoline')).toEqual([]);
    expect(await ids('search=ottoline')).toEqual([a, b].sort());
    const bad = await call(viewer, 'GET', '/api/subjects/?dob=1906-13-40');
    expect([bad.statusCode, bad.json()]).toEqual([400, { dob: ['Enter a valid date.'] }]);
  });
});

describe('the duplicate rule (subject_dedup)', () => {
  it('flags a subject added or changed to look like another, once, audited', async () => {
    const add = (c: Client, first: string, last: string, email: string, dob?: string) =>
      call(c, 'POST', '/api/subjects/', {
        first_name: first,
        last_name: last,
        email,
        ...(dob ? { dob } : {}),
      });
    const ruleFlags = (subjectId: number) =>
      t.owner((tx) =>
        tx
          .select()
          .from(flags)
          .where(and(eq(flags.subjectId, subjectId), eq(flags.kind, 'rule'))),
      );
    const first = (await add(admin, 'Nora', 'Quill', 'nora@quill.test', '1985-05-05')).json();
    expect(await ruleFlags(first.id)).toEqual([]);
    // same name (any case) and date of birth
    const twin = (await add(admin, 'NORA', 'quill', 'other@quill.test', '1985-05-05')).json();
    const [flag] = await ruleFlags(twin.id);
    expect(flag).toMatchObject({ active: true, createdByName: 'Duplicate check' });
    expect(flag?.message).toContain(`subject #${first.id}`);
    const audited = await t.owner((tx) =>
      tx
        .select()
        .from(auditActions)
        .where(
          and(
            eq(auditActions.contentType, 'flags.flag'),
            eq(auditActions.objectId, String(flag?.id)),
          ),
        ),
    );
    expect(audited.map((a) => a.verb)).toEqual(['created']);
    // the same email once dots and +tags are ignored
    const dotted = (await add(admin, 'N', 'Q', 'n.o.r.a+work@quill.test')).json();
    expect((await ruleFlags(dotted.id)).map((f) => f.message)).toEqual([
      expect.stringContaining(`subject #${first.id}`),
    ]);
    // a change that makes a subject look like another flags it; one active rule flag at most
    const later = (await add(admin, 'Someone', 'Else', 'someone@else.test', '1985-05-05')).json();
    expect(await ruleFlags(later.id)).toEqual([]);
    await call(admin, 'PATCH', `/api/subjects/${later.id}/`, {
      first_name: 'Nora',
      last_name: 'Quill',
    });
    expect(await ruleFlags(later.id)).toHaveLength(1);
    await call(admin, 'PATCH', `/api/subjects/${later.id}/`, { dob: '1985-05-05' });
    expect(await ruleFlags(later.id)).toHaveLength(1);
    // a customer without the entitlement gets no rule flags
    const a = (await add(plainAdmin, 'Nora', 'Quill', 'nora@quill.test', '1985-05-05')).json();
    const b = (await add(plainAdmin, 'Nora', 'Quill', 'nq@quill.test', '1985-05-05')).json();
    expect([...(await ruleFlags(a.id)), ...(await ruleFlags(b.id))]).toEqual([]);
  });
});
