import { ROLE_TEMPLATES } from '@kestrel/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  type Client,
  createCase,
  createCustomer,
  createFlag,
  createProcess,
  createProductUser,
  createRole,
  createSubjectUser,
  login,
  type TestApp,
} from '../../../test/helpers.js';
import { audienceOf } from '../../platform/access.js';
import { auditActions } from '../../platform/tables/audit.table.js';
import { caseActivities } from '../activities/activities.table.js';
import {
  createCaseAddress,
  createCaseDrivingLicence,
  createCaseOtherName,
  createCasePassport,
} from '../case-data/case-data.factories.js';
import { caseDbsUpdateDetails } from '../case-data/case-data.table.js';
import { createCaseDocument } from '../case-documents/case-documents.factories.js';
import { cycles, subscriptions } from '../cycles/cycles.table.js';
import { erasureRequests } from '../data-requests/erasure-requests.table.js';
import { createPayment, createPaymentIntent } from '../payments/payments.factories.js';
import { subjectConsents } from '../portal/consents.table.js';
import { processes } from '../processes/processes.table.js';
import { portalRegistrations, registrationPortals } from '../regportals/regportals.table.js';
import { segments, segmentUsers } from './segments.table.js';

// Walks the route table as a user limited to one segment (issue 30): every GET route of the
// customer workspace, its :id filled with the other segment's rows (404) and its own (200), and
// every list, export, search and count, which must show nothing of the other segment. A route
// added later is walked without anyone remembering to; one whose resource is unknown here fails
// until it is classified. The filter is the segment_scope policy (db/security.ts).

/** Resources whose rows belong to a case, a subject or a process: another segment's are 404. */
const SEGMENTED = [
  'cases',
  'subjects',
  'processes',
  'flags',
  'case-activities',
  'outstanding-activities',
  'audit-actions',
  'case-basic-details',
  'case-birth-details',
  'case-other-names',
  'case-addresses',
  'case-passports',
  'case-driving-licences',
  'case-dbs-update-details',
  'case-dbs-details',
  'case-rtw-details',
  'case-documents',
  'case-online-idv',
  'idv-case-activities',
  'payment-intents',
  'payments',
  'subscriptions',
  // issue 31: a registration through a portal of the segment's process
  'portal-registrations',
  // issue 34: an erasure request for a subject of the segment
  'erasure-requests',
] as const;
type Resource = (typeof SEGMENTED)[number];
/** The organisation's own set-up and reference data: the same for every user of the customer. */
const ORGANISATION = [
  'users',
  'roles',
  'entitlements',
  'security-refusals',
  'segments',
  'activity-types',
  'content-types',
  'verbs',
  // licensing (issue 32): a council's licence set-up and its register of licences are the
  // council's, not a segment's (a licence is not a case of a segment's process)
  'lms',
  // the organisation's systems integration (issue 33): its webhook endpoints are an
  // administrator's set-up, not a segment's
  'webhook-endpoints',
];

/** Words only the other segment's rows carry (its subject's name and email, its process). */
const MARKERS = ['bravo', 'process outside'];

let t: TestApp;
let customerId: number;
const ids: Record<'mine' | 'theirs', Record<Resource, number | string>> = {
  mine: {} as Record<Resource, number | string>,
  theirs: {} as Record<Resource, number | string>,
};
let admin: Client;
let limited: Client;
/** Each segment's cycle (of its process: `/api/processes/:id/cycles/:cycleId/`). */
const cycleOf = { mine: 0, theirs: 0 };
/** Each segment's registration portal (`/api/processes/:id/registration-portals/:regPortalId/`). */
const regPortalOf = { mine: 0, theirs: 0 };

async function segmentObjects(
  segmentId: number,
  who: { first: string; email: string; process: string },
) {
  return t.owner(async (tx) => {
    const process = await createProcess(tx, { customerId, name: who.process });
    await tx.update(processes).set({ segmentId }).where(eq(processes.id, process.id));
    const subject = await createSubjectUser(tx, {
      customerId,
      email: who.email,
      firstName: who.first,
      lastName: 'Person',
    });
    const c = await createCase(tx, {
      customerId,
      processId: process.id,
      subjectId: subject.id,
      activityStates: ['ca-awaiting-agent'],
    });
    const flag = await createFlag(tx, { customerId, caseId: c.id, message: `${who.first} flag` });
    await createFlag(tx, { customerId, subjectId: subject.id, message: `${who.first} subject` });
    const idvProcess = await createProcess(tx, {
      customerId,
      name: `${who.process} IDV`,
      requirements: ['online-idv'],
    });
    await tx.update(processes).set({ segmentId }).where(eq(processes.id, idvProcess.id));
    const idvCase = await createCase(tx, {
      customerId,
      processId: idvProcess.id,
      subjectId: subject.id,
      activityStates: ['ca-awaiting-subject'],
    });
    const [idvActivity] = await tx
      .select({ id: caseActivities.id })
      .from(caseActivities)
      .where(eq(caseActivities.caseId, idvCase.id));
    const [activity] = await tx
      .select({ id: caseActivities.id })
      .from(caseActivities)
      .where(eq(caseActivities.caseId, c.id));
    const [audit] = await tx
      .insert(auditActions)
      .values({
        customerId,
        actorName: 'fixture',
        verb: 'updated',
        contentType: 'cases.case',
        objectId: String(c.id),
        objectRepr: `Case of ${who.first} Person`,
      })
      .returning({ id: auditActions.id });
    await tx.insert(auditActions).values({
      customerId,
      actorName: 'fixture',
      verb: 'updated',
      contentType: 'subjects.subject',
      objectId: String(subject.id),
      objectRepr: `${who.first} Person`,
    });
    const at = new Date();
    const key = { customerId, caseId: c.id };
    const name = await createCaseOtherName(tx, key, { forename: who.first, surname: 'Old' });
    const address = await createCaseAddress(tx, key, { current: true });
    // a consent given in the portal (the consents lists, issue 30), its mandate ending in 50 days
    await tx.insert(subjectConsents).values({
      customerId,
      caseId: c.id,
      caseActivityId: activity?.id ?? 0,
      kind: 'driver-data',
      givenAt: at,
      expiresAt: new Date(at.getTime() + 50 * 86_400_000),
    });
    // a passport that runs out in 60 days: on the expiry calendar (issue 33) of the segment
    await createCasePassport(tx, key, at, {
      expiryDate: new Date(at.getTime() + 60 * 86_400_000).toISOString().slice(0, 10),
    });
    await createCaseDrivingLicence(
      tx,
      key,
      { forename: who.first, surname: 'Person', dob: '1990-01-01' },
      at,
    );
    await tx.insert(caseDbsUpdateDetails).values({ ...key, certificateNumber: '001234567890' });
    const document = await createCaseDocument(tx, t.app.deps.storage, { customerId, caseId: c.id });
    const intent = await createPaymentIntent(tx, {
      customerId,
      caseId: c.id,
      caseActivityId: activity?.id ?? 0,
      outcome: 'paid',
    });
    await createPayment(tx, intent);
    // a subscription of the subject to a cycle of the segment's process (issue 31)
    const [cycle] = await tx
      .insert(cycles)
      .values({
        customerId,
        processId: process.id,
        name: `${who.first} cycle`,
        requirements: ['dbs-update'],
        repeatInterval: 6,
        repeatUnit: 'monthly',
        billingInterval: 1,
        billingTriggered: 'monthly',
      })
      .returning({ id: cycles.id });
    const [subscription] = await tx
      .insert(subscriptions)
      .values({ customerId, cycleId: cycle?.id ?? 0, subjectId: subject.id, startedAt: at })
      .returning({ id: subscriptions.id });
    cycleOf[who.first === 'Alpha' ? 'mine' : 'theirs'] = cycle?.id ?? 0;
    // a registration portal of the segment's process, and a registration through it (issue 31)
    const [regPortal] = await tx
      .insert(registrationPortals)
      .values({
        customerId,
        processId: process.id,
        segmentId,
        path: 'walk',
        title: `${who.first} portal`,
        askEmail: 'required',
        askDob: 'optional',
        askPhone: 'optional',
      })
      .returning({ id: registrationPortals.id });
    const [registration] = await tx
      .insert(portalRegistrations)
      .values({
        customerId,
        regPortalId: regPortal?.id ?? 0,
        processId: process.id,
        firstName: who.first,
        lastName: 'Person',
        email: who.email,
        state: 'started',
        startedAt: at,
        expiresAt: new Date(at.getTime() + 48 * 3_600_000),
      })
      .returning({ id: portalRegistrations.id });
    regPortalOf[who.first === 'Alpha' ? 'mine' : 'theirs'] = regPortal?.id ?? 0;
    const [erasure] = await tx
      .insert(erasureRequests)
      .values({ customerId, subjectId: subject.id, requestedByType: 'ProductUser' })
      .returning({ id: erasureRequests.id });
    return {
      cases: c.id,
      subjects: subject.id,
      processes: process.id,
      flags: flag.id,
      'case-activities': activity?.id ?? 0,
      'outstanding-activities': activity?.id ?? 0,
      'audit-actions': audit?.id ?? 0,
      'case-basic-details': c.id,
      'case-birth-details': c.id,
      'case-other-names': name?.id ?? 0,
      'case-addresses': address.id,
      'case-passports': c.id,
      'case-driving-licences': c.id,
      'case-dbs-update-details': c.id,
      'case-dbs-details': c.id,
      'case-rtw-details': c.id,
      'case-documents': document.id,
      'case-online-idv': c.id,
      'idv-case-activities': idvActivity?.id ?? 0,
      'payment-intents': intent.id,
      // the customer's payments are named by kind (product-N, portal-N)
      payments: `portal-${intent.id}`,
      subscriptions: subscription?.id ?? 0,
      'portal-registrations': registration?.id ?? 0,
      'erasure-requests': erasure?.id ?? 0,
    };
  });
}

beforeAll(async () => {
  t = await buildTestApp();
  const [mine, theirs] = await t.owner(async (tx) => {
    customerId = (
      await createCustomer(tx, {
        name: 'Acme',
        entitlements: ['subject_dedup', 'regportals', 'cycles'],
      })
    ).id;
    const made = await tx
      .insert(segments)
      .values([
        { customerId, name: 'Alpha site' },
        { customerId, name: 'Other site' },
      ])
      .returning();
    // everything an administrator may do, in a role that is not the administrators'
    const everything = await createRole(tx, {
      customerId,
      name: 'Site manager',
      permissions: [...ROLE_TEMPLATES.admin],
    });
    const me = await createProductUser(tx, {
      customerId,
      username: 'limited@acme.test',
      roles: [everything.id],
    });
    await createProductUser(tx, { customerId, username: 'admin@acme.test', roles: ['admin'] });
    const [a, b] = made;
    if (!a || !b) throw new Error('segments not made');
    await tx.insert(segmentUsers).values({ customerId, segmentId: a.id, userId: me.id });
    return [a.id, b.id];
  });
  ids.mine = await segmentObjects(mine, {
    first: 'Alpha',
    email: 'alpha.person@people.test',
    process: 'Process inside',
  });
  ids.theirs = await segmentObjects(theirs, {
    first: 'Bravo',
    email: 'bravo.person@people.test',
    process: 'Process outside',
  });
  admin = await login(t.app, 'admin@acme.test');
  limited = await login(t.app, 'limited@acme.test');
});
afterAll(() => t.close());

const getRoutes = () =>
  t.app.routeTable.filter(
    (r) =>
      r.url.startsWith('/api/') &&
      r.method === 'GET' &&
      ['product', 'authenticated'].includes(
        audienceOf(r.url, t.app.routeAccess.get(`${r.method} ${r.url}`)?.audience),
      ),
  );
const get = (client: Client, url: string) =>
  t.app.inject({ method: 'GET', url, headers: client.headers });
const resourceOf = (url: string) => url.split('/')[2] ?? '';
/** The other segment's words in a body, and its row's id among a list's results. */
function leaks(url: string, text: string): string[] {
  const found = MARKERS.filter((m) => text.toLowerCase().includes(m));
  const resource = resourceOf(url) as Resource;
  const theirs = ids.theirs[resource];
  if (theirs === undefined) return found;
  try {
    const body: unknown = JSON.parse(text);
    const results =
      typeof body === 'object' && body !== null && 'results' in body && Array.isArray(body.results)
        ? body.results
        : Array.isArray(body)
          ? body
          : [];
    for (const row of results) {
      if (typeof row === 'object' && row !== null && 'id' in row && row.id === theirs) {
        found.push(`${resource} ${theirs}`);
      }
    }
  } catch {
    // not JSON (the CSV export): its words are enough
  }
  return found;
}

describe('a user limited to one segment, walking every GET route', () => {
  it("answers 404 for the other segment's rows on every :id route, 200 for their own", async () => {
    const routes = getRoutes().filter((r) => r.url.includes('/:id/'));
    const unknown = routes
      .map((r) => resourceOf(r.url))
      .filter((x) => !(SEGMENTED as readonly string[]).includes(x) && !ORGANISATION.includes(x));
    expect(unknown).toEqual([]);
    const answers: string[] = [];
    for (const r of routes.filter((x) =>
      (SEGMENTED as readonly string[]).includes(resourceOf(x.url)),
    )) {
      const resource = resourceOf(r.url) as Resource;
      const url = (which: 'mine' | 'theirs') =>
        r.url
          .replace(':id', String(ids[which][resource]))
          .replace(':cycleId', String(cycleOf[which]))
          .replace(':regPortalId', String(regPortalOf[which]))
          .replace(/:[a-zA-Z]+/g, '1');
      const theirs = await get(limited, url('theirs'));
      answers.push(`${r.url} ${theirs.statusCode}`);
      expect([r.url, theirs.json()]).toEqual([r.url, { detail: 'Not found.' }]);
      // the same route finds the user's own row, and the administrator's view of the other's
      const mine = await get(limited, url('mine'));
      expect([r.url, mine.statusCode]).toEqual([r.url, 200]);
      const seen = await get(admin, url('theirs'));
      expect([r.url, seen.statusCode]).toEqual([r.url, 200]);
    }
    expect(answers.length).toBeGreaterThan(25);
  });

  it('lists, searches and exports nothing of the other segment (the administrator sees it)', async () => {
    const routes = getRoutes().filter((r) => !r.url.includes('/:'));
    expect(routes.length).toBeGreaterThan(20);
    const queries = [
      '',
      '?search=Brav',
      `?case=${ids.theirs.cases}`,
      `?subject=${ids.theirs.subjects}`,
      `?process=${ids.theirs.processes}`,
    ];
    const leaked: string[] = [];
    const adminSaw = new Set<string>();
    for (const r of routes) {
      for (const q of queries) {
        const mine = await get(limited, `${r.url}${q}`);
        expect([r.url, q, mine.statusCode < 500]).toEqual([r.url, q, true]);
        for (const m of leaks(r.url, mine.body)) leaked.push(`${r.url}${q}: ${m}`);
        const all = await get(admin, `${r.url}${q}`);
        if (leaks(r.url, all.body).length > 0) adminSaw.add(r.url);
      }
    }
    expect(leaked).toEqual([]);
    // not vacuous: the other segment's rows are there for an administrator on these lists
    for (const url of [
      '/api/cases/',
      '/api/cases/export/',
      '/api/subjects/',
      '/api/processes/',
      '/api/flags/',
      '/api/audit-actions/',
      '/api/case-documents/',
      '/api/case-activities/',
      '/api/expiry-calendar/',
      '/api/expiry-calendar/export/',
      '/api/consents/',
      '/api/payments/',
    ]) {
      expect([url, adminSaw.has(url)]).toEqual([url, true]);
    }
  });

  it('counts only their segment: dashboard, case totals, the flag badge', async () => {
    const dash = (await get(limited, '/api/dashboard/')).json();
    const byState = Object.values(dash.cases_by_state as Record<string, number>);
    expect(byState.reduce((a, b) => a + b, 0)).toBe(2);
    expect(dash.active_flags).toBe(2);
    expect(dash.flagged_cases).toBe(1);
    // each case's three activities await an agent
    expect(dash.outstanding_activities).toBe(3);
    expect((await get(admin, '/api/dashboard/')).json().outstanding_activities).toBe(6);
    expect((await get(limited, '/api/cases/')).json().count).toBe(2);
    expect((await get(admin, '/api/cases/')).json().count).toBe(4);
    const session = (await get(limited, '/api/accounts/check-session/')).json();
    expect(session.active_flags).toBe(2);
    const all = (await get(admin, '/api/accounts/check-session/')).json();
    expect(all.active_flags).toBe(4);
  });
});
