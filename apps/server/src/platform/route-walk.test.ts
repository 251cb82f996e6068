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
} from '../../test/helpers.js';
import { caseActivities } from '../modules/activities/activities.table.js';
import { apiKeys } from '../modules/api-keys/api-keys.table.js';
import {
  createCaseAddress,
  createCaseDrivingLicence,
  createCaseOtherName,
  createCasePassport,
} from '../modules/case-data/case-data.factories.js';
import { caseDbsUpdateDetails } from '../modules/case-data/case-data.table.js';
import { createCaseDocument } from '../modules/case-documents/case-documents.factories.js';
import { customerEntitlements } from '../modules/customers/customers.table.js';
import { cycles, subscriptionCharges, subscriptions } from '../modules/cycles/cycles.table.js';
import { erasureRequests } from '../modules/data-requests/erasure-requests.table.js';
import {
  licenceDefinitions,
  licenceGroups,
  licenceSubGroups,
  licences,
  lmsApplicationPortals,
} from '../modules/lms/lms.table.js';
import { lmsApplications } from '../modules/lms/lms-applications.table.js';
import { customerPaymentMethods } from '../modules/payments/payment-methods.table.js';
import { createPayment, createPaymentIntent } from '../modules/payments/payments.factories.js';
import {
  portalRegistrations,
  registrationPortals,
} from '../modules/regportals/regportals.table.js';
import { segments } from '../modules/segments/segments.table.js';
import { webhookDeliveries, webhookEndpoints } from '../modules/webhooks/webhooks.table.js';
import { audienceOf } from './access.js';
import { auditActions, securityRefusals } from './tables/audit.table.js';

// Walks the route table, so a route added later is covered without anyone remembering to:
// every customer-workspace route with an id answers 404 for another customer's object (and
// finds the caller's own), and every route that declares permissions refuses a user without them.

/** Tenant-owned resources: the path prefix of their `:id` routes. */
const TENANT = [
  'cases',
  'subjects',
  'processes',
  'flags',
  'case-activities',
  'outstanding-activities',
  'audit-actions',
  'security-refusals',
  'users',
  'roles',
  'entitlements',
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
  'payment-methods',
  'segments',
  'subscriptions',
  // issue 31: a subscription's billing period (its card charge's retry)
  'subscription-charges',
  // issue 31: a customer's portal registrations (its portals are a process's: processes)
  'portal-registrations',
  // licensing (issue 32): /api/lms/<resource>/:id/
  'lms/licence-groups',
  'lms/licence-sub-groups',
  'lms/definitions',
  'lms/licences',
  'lms/applications',
  // issue 33: API keys, webhook endpoints and their deliveries
  'api-keys',
  'webhook-endpoints',
  'webhook-deliveries',
  // issue 34: erasure requests
  'erasure-requests',
] as const;
type Resource = (typeof TENANT)[number];
/** `:id` routes of reference data, the same for every customer. */
const SHARED = ['activity-types', 'content-types', 'verbs'];

/** Bodies that pass validation, so that only the object's tenant decides the answer. */
const CASE_BASIC = {
  gender: 'female',
  title: 'Ms',
  forename: 'Pat',
  surname: 'Other',
  dob: '1990-01-01',
  phone_number: '07911 123456',
  nationality: 'GBR',
};
const BODIES: Record<string, unknown> = {
  'PUT /api/case-basic-details/:id/': CASE_BASIC,
  'PUT /api/case-birth-details/:id/': { country: 'GBR', town: 'Leeds' },
  'PUT /api/case-passports/:id/': { number: 'A1', country: 'FRA', expiry_date: '2099-01-01' },
  'PUT /api/case-driving-licences/:id/': {
    licence_type: 'paper',
    number: '12345678',
    country: 'GBR',
  },
  'PUT /api/case-dbs-update-details/:id/': {
    certificate_number: '001234567890',
    surname: 'Other',
    dob: '1990-01-01',
  },
  'POST /api/cases/:id/record_decision/': { decision: 'satisfactory' },
  'POST /api/cases/:id/legal-hold/': { reason: 'Tribunal claim' },
  'POST /api/cases/:id/legal-hold/lift/': { reason: 'Settled' },
  'PUT /api/cases/:id/employment-end/': { employment_ended_on: '2026-01-01' },
  'POST /api/flags/:id/resolve/': { comment: 'Checked' },
  'POST /api/case-documents/:id/reject/': { reason: 'Unreadable' },
  'POST /api/case-activities/:id/rtw-check/': { outcome: 'no-right' },
  'PUT /api/processes/:id/': {
    name: 'Renamed',
    description: '',
    is_active: true,
    send_invitation: true,
    reminder_days: 7,
    invitation_message: '',
  },
  'PUT /api/processes/:id/requirements/': [],
  'PATCH /api/webhook-endpoints/:id/': { description: 'Walk' },
  'POST /api/erasure-requests/:id/decide/': { decision: 'refuse', reason: 'Walk' },
  'POST /api/subjects/:id/merge/': { duplicate: 1 },
  'PUT /api/subjects/:id/': {
    first_name: 'Pat',
    middlename: '',
    last_name: 'Other',
    email: 'pat@other.test',
    dob: '1990-01-01',
    phone_number: '',
  },
  'PUT /api/segments/:id/': {
    name: 'Renamed',
    employer_name: '',
    line_one: '',
    line_two: '',
    town: '',
    postcode: '',
    contact_name: '',
    contact_email: '',
    contact_phone: '',
  },
  'POST /api/segments/:id/users/': { user: 1 },
  'POST /api/processes/:id/cycles/': {
    name: 'Yearly',
    requirements: ['dbs-update'],
    repeat_interval: 1,
    repeat_unit: 'yearly',
    billing_interval: 1,
    billing_triggered: 'yearly',
  },
  'POST /api/subjects/:id/subscriptions/': { cycle: 1 },
  'POST /api/processes/:id/registration-portals/': { segment_id: 1, path: 'walk', title: 'Walk' },
  'PATCH /api/processes/:id/registration-portals/:regPortalId/': { open: false },
  'PUT /api/processes/:id/cycles/:cycleId/': {
    name: 'Yearly',
    requirements: ['dbs-update'],
    repeat_interval: 1,
    repeat_unit: 'yearly',
    billing_interval: 1,
    billing_triggered: 'yearly',
    is_active: true,
  },
  'POST /api/segments/:id/processes/': { process: 1 },
  'PUT /api/users/:id/': {
    first_name: 'Pat',
    last_name: 'Other',
    job_title: '',
    is_active: true,
    roles: [],
    segments: [],
  },
  'PUT /api/roles/:id/': { name: 'Renamed', permissions: ['cases.view_case'] },
  'PUT /api/lms/licence-groups/:id/': { name: 'Renamed', description: '', is_published: false },
  'PUT /api/lms/licence-sub-groups/:id/': {
    name: 'Renamed',
    code: 'REN',
    description: '',
    is_published: false,
  },
  'PUT /api/lms/definitions/:id/': {
    name: 'Renamed',
    description: '',
    duration_years: 1,
    fee_pence: 100,
    requirements: [],
    documents: [],
    declarations: [],
    is_published: false,
  },
  'PUT /api/lms/definitions/:id/application_portals/:appId/': {
    title: 'Renamed',
    introduction: '',
    is_open: false,
    kind: 'new',
    fee_pence: 100,
  },
  'POST /api/lms/definitions/:id/application_portals/': { title: 'Walk', fee_pence: 100 },
  'PATCH /api/lms/definitions/:id/requirements/:activityType/': { config: {} },
  'PATCH /api/lms/licences/:id/': { conditions: '' },
  'POST /api/lms/licences/:id/suspend/': { reason: 'Walk' },
  'POST /api/lms/licences/:id/revoke/': { reason: 'Walk' },
  'POST /api/lms/licences/:id/reinstate/': { reason: 'Walk' },
  'POST /api/lms/licences/:id/surrender/': { reason: 'Walk' },
  'POST /api/lms/applications/:id/refuse/': { reason: 'Walk' },
  'POST /api/lms/applications/:id/request-info/': { message: 'Walk' },
};

let t: TestApp;
const ids: Record<'mine' | 'theirs', Record<Resource, number | string>> = {
  mine: {} as Record<Resource, number | string>,
  theirs: {} as Record<Resource, number | string>,
};
/** Each customer's cycle (issue 31), the second id of /api/processes/:id/cycles/:cycleId/. */
const cycleIds = { mine: 0, theirs: 0 };
/** Each customer's registration portal (issue 31), the second id of its process's routes. */
const regPortalIds = { mine: 0, theirs: 0 };
/** Each council's application portal (issue 32), the second id of its definition's routes. */
const portalIds = { mine: 0, theirs: 0 };
let admin: Client;
let nobody: Client;

async function tenantObjects(customerId: number, username: string, domain: string) {
  return t.owner(async (tx) => {
    const role = await createRole(tx, {
      customerId,
      name: `admin ${domain}`,
      permissions: 'admin',
    });
    const user = await createProductUser(tx, { customerId, username, roles: [role.id] });
    const process = await createProcess(tx, { customerId });
    const subject = await createSubjectUser(tx, { customerId, email: `person@${domain}` });
    const c = await createCase(tx, {
      customerId,
      processId: process.id,
      subjectId: subject.id,
      activityStates: ['ca-awaiting-agent'],
    });
    const flag = await createFlag(tx, { customerId, caseId: c.id });
    // an online identity activity (GET /api/idv-case-activities/:id/ lists only that kind)
    const idvProcess = await createProcess(tx, { customerId, requirements: ['online-idv'] });
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
      .values({ customerId, actorName: 'fixture', verb: 'created' })
      .returning({ id: auditActions.id });
    const at = new Date();
    const [refusal] = await tx
      .insert(securityRefusals)
      .values({
        customerId,
        actorName: 'fixture',
        route: 'GET /api/ops/customers/',
        windowStart: at,
        firstSeenAt: at,
        lastSeenAt: at,
      })
      .returning({ id: securityRefusals.id });
    const key = { customerId, caseId: c.id };
    const name = await createCaseOtherName(tx, key, { forename: 'Pat', surname: 'Old' });
    const address = await createCaseAddress(tx, key, { current: true });
    await createCasePassport(tx, key, at);
    await createCaseDrivingLicence(
      tx,
      key,
      { forename: 'Pat', surname: 'Other', dob: '1990-01-01' },
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
    const [card] = await tx
      .insert(customerPaymentMethods)
      .values({
        customerId,
        provider: 'simulator',
        providerPaymentMethodId: `pm_sim_4242_walk_${customerId}`,
        providerSetupIntentId: `seti_sim_walk_${customerId}`,
        brand: 'visa',
        last4: '4242',
        expMonth: 12,
        expYear: 2040,
        isDefault: true,
      })
      .returning();
    const [segment] = await tx
      .insert(segments)
      .values({ customerId, name: `Site of ${domain}` })
      .returning({ id: segments.id });
    const [cycle] = await tx
      .insert(cycles)
      .values({
        customerId,
        processId: process.id,
        name: 'Yearly',
        requirements: ['dbs-update'],
        repeatInterval: 1,
        repeatUnit: 'yearly',
        billingInterval: 1,
        billingTriggered: 'yearly',
      })
      .returning({ id: cycles.id });
    const [subscription] = await tx
      .insert(subscriptions)
      .values({
        customerId,
        cycleId: cycle?.id ?? 0,
        subjectId: subject.id,
        startedAt: new Date(),
        nextDueAt: new Date(Date.now() + 86_400_000),
      })
      .returning({ id: subscriptions.id });
    const [subscriptionCharge] = await tx
      .insert(subscriptionCharges)
      .values({
        customerId,
        subscriptionId: subscription?.id ?? 0,
        period: new Date(),
        amountPence: 1300,
        kind: 'card',
        description: 'Yearly',
      })
      .returning({ id: subscriptionCharges.id });
    const [regPortal] = await tx
      .insert(registrationPortals)
      .values({
        customerId,
        processId: process.id,
        segmentId: segment?.id ?? 0,
        path: 'walk',
        title: 'Walk',
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
        firstName: 'Pat',
        lastName: 'Walk',
        email: `pat@${domain}`,
        state: 'started',
        startedAt: new Date(),
        expiresAt: new Date(Date.now() + 48 * 3_600_000),
      })
      .returning({ id: portalRegistrations.id });
    const [group] = await tx
      .insert(licenceGroups)
      .values({ customerId, name: `Taxis of ${domain}` })
      .returning({ id: licenceGroups.id });
    const [subGroup] = await tx
      .insert(licenceSubGroups)
      .values({ customerId, groupId: group?.id ?? 0, name: 'Drivers', code: 'HCD' })
      .returning({ id: licenceSubGroups.id });
    const [definition] = await tx
      .insert(licenceDefinitions)
      .values({
        customerId,
        subGroupId: subGroup?.id ?? 0,
        name: 'Driver',
        durationYears: 3,
        feePence: 100,
      })
      .returning({ id: licenceDefinitions.id });
    const [portal] = await tx
      .insert(lmsApplicationPortals)
      .values({ customerId, definitionId: definition?.id ?? 0, title: 'Apply', feePence: 100 })
      .returning({ id: lmsApplicationPortals.id });
    const [licence] = await tx
      .insert(licences)
      .values({
        customerId,
        definitionId: definition?.id ?? 0,
        holderId: subject.id,
        number: 'HCD/2026/00001',
        issueDate: '2026-01-01',
        expiryDate: '2028-12-31',
      })
      .returning({ id: licences.id });
    const [application] = await tx
      .insert(lmsApplications)
      .values({
        customerId,
        portalId: portal?.id ?? 0,
        definitionId: definition?.id ?? 0,
        subjectId: subject.id,
        kind: 'new',
        state: 'in_progress',
        feePence: 100,
        taxCheckNeed: 'confirm',
      })
      .returning({ id: lmsApplications.id });
    const [entitlement] = await tx
      .select({ id: customerEntitlements.id })
      .from(customerEntitlements)
      .where(eq(customerEntitlements.customerId, customerId));
    const [apiKey] = await tx
      .insert(apiKeys)
      .values({
        customerId,
        name: 'Walk',
        prefix: 'kst_walk',
        secretHash: '0'.repeat(64),
        scopes: [],
      })
      .returning();
    const [endpoint] = await tx
      .insert(webhookEndpoints)
      .values({
        customerId,
        url: 'https://hooks.example.test/',
        events: ['case.created'],
        secret: 'whsec_walk',
      })
      .returning();
    const [delivery] = await tx
      .insert(webhookDeliveries)
      .values({
        customerId,
        endpointId: endpoint?.id ?? 0,
        event: 'case.created',
        eventId: 'evt_walk',
        payload: {},
      })
      .returning();
    const [erasure] = await tx
      .insert(erasureRequests)
      .values({ customerId, subjectId: subject.id, requestedByType: 'ProductUser' })
      .returning();
    return {
      cases: c.id,
      subjects: subject.id,
      processes: process.id,
      flags: flag.id,
      'case-activities': activity?.id ?? 0,
      'outstanding-activities': activity?.id ?? 0,
      'audit-actions': audit?.id ?? 0,
      'security-refusals': refusal?.id ?? 0,
      users: user.id,
      roles: role.id,
      entitlements: entitlement?.id ?? 0,
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
      payments: `portal-${intent.id}`,
      segments: segment?.id ?? 0,
      'payment-methods': card?.id ?? 0,
      subscriptions: subscription?.id ?? 0,
      'subscription-charges': subscriptionCharge?.id ?? 0,
      'portal-registrations': registration?.id ?? 0,
      'lms/licence-groups': group?.id ?? 0,
      'lms/licence-sub-groups': subGroup?.id ?? 0,
      'lms/definitions': definition?.id ?? 0,
      'lms/licences': licence?.id ?? 0,
      'lms/applications': application?.id ?? 0,
      'api-keys': apiKey?.id ?? 0,
      'webhook-endpoints': endpoint?.id ?? 0,
      'webhook-deliveries': delivery?.id ?? 0,
      'erasure-requests': erasure?.id ?? 0,
      cycle: cycle?.id ?? 0,
      regPortal: regPortal?.id ?? 0,
      portal: portal?.id ?? 0,
    };
  });
}

beforeAll(async () => {
  t = await buildTestApp();
  const mine = await t.owner((tx) =>
    createCustomer(tx, { name: 'Mine', entitlements: ['subject_dedup', 'cycles', 'regportals'] }),
  );
  const theirs = await t.owner((tx) =>
    createCustomer(tx, { name: 'Theirs', entitlements: ['subject_dedup', 'cycles', 'regportals'] }),
  );
  const {
    cycle: myCycle,
    regPortal: myRegPortal,
    portal: myPortal,
    ...myIds
  } = await tenantObjects(mine.id, 'admin@mine.test', 'mine.test');
  const {
    cycle: theirCycle,
    regPortal: theirRegPortal,
    portal: theirPortal,
    ...theirIds
  } = await tenantObjects(theirs.id, 'admin@theirs.test', 'theirs.test');
  ids.mine = myIds;
  ids.theirs = theirIds;
  cycleIds.mine = myCycle;
  cycleIds.theirs = theirCycle;
  regPortalIds.mine = myRegPortal;
  regPortalIds.theirs = theirRegPortal;
  portalIds.mine = myPortal;
  portalIds.theirs = theirPortal;
  await t.owner(async (tx) => {
    const none = await createRole(tx, { customerId: mine.id, name: 'nothing', permissions: [] });
    await createProductUser(tx, {
      customerId: mine.id,
      username: 'nobody@mine.test',
      roles: [none.id],
    });
  });
  admin = await login(t.app, 'admin@mine.test');
  nobody = await login(t.app, 'nobody@mine.test');
});
afterAll(() => t.close());

const productRoutes = () =>
  t.app.routeTable.filter(
    (r) =>
      r.url.startsWith('/api/') &&
      r.method !== 'HEAD' &&
      ['product', 'authenticated'].includes(
        audienceOf(r.url, t.app.routeAccess.get(`${r.method} ${r.url}`)?.audience),
      ),
  );

/** The route of a walked URL: its ids back to `:id` (and a cycle's to `:cycleId`). */
const routeOf = (url: string) =>
  url
    .replace(/\/\d+\//, '/:id/')
    .replace(/\/cycles\/\d+\//, '/cycles/:cycleId/')
    .replace(/\/registration-portals\/\d+\//, '/registration-portals/:regPortalId/')
    .replace(/\/application_portals\/\d+\//, '/application_portals/:appId/');

function call(client: Client, method: string, url: string) {
  return t.app.inject({
    method: method as 'GET',
    url,
    headers: client.headers,
    ...(method === 'GET' || method === 'DELETE'
      ? {}
      : { payload: BODIES[`${method} ${routeOf(url)}`] ?? {} }),
  });
}

describe('walking the route table', () => {
  it('answers 404 for another customer object on every customer-workspace :id route', async () => {
    const routes = productRoutes().filter((r) => r.url.includes('/:id/'));
    // /api/<resource>/:id/, or /api/lms/<resource>/:id/
    const resourceOf = (url: string) => {
      const [, , first, second] = url.split('/');
      return first === 'lms' ? `lms/${second}` : (first ?? '');
    };
    const unknown = routes.filter(
      (r) => !TENANT.includes(resourceOf(r.url) as Resource) && !SHARED.includes(resourceOf(r.url)),
    );
    expect(unknown).toEqual([]);
    const answers: string[] = [];
    for (const r of routes.filter((x) => TENANT.includes(resourceOf(x.url) as Resource))) {
      const resource = resourceOf(r.url) as Resource;
      const theirs = await call(
        admin,
        r.method,
        r.url
          .replace(':id', String(ids.theirs[resource]))
          .replace(':cycleId', String(cycleIds.theirs))
          .replace(':regPortalId', String(regPortalIds.theirs))
          .replace(':appId', String(portalIds.theirs)),
      );
      answers.push(`${r.method} ${r.url} ${theirs.statusCode}`);
      expect([r.method, r.url, theirs.json()]).toEqual([r.method, r.url, { detail: 'Not found.' }]);
      if (r.method === 'GET') {
        // the caller's own object is there: the 404 above is the tenant's doing, not the id's
        const url = r.url.replace(':id', String(ids.mine[resource]));
        const mine = await call(
          admin,
          r.method,
          url
            .replace(':cycleId', String(cycleIds.mine))
            .replace(':regPortalId', String(regPortalIds.mine))
            .replace(':appId', String(portalIds.mine)),
        );
        expect([r.url, mine.statusCode]).toEqual([r.url, 200]);
      }
    }
    expect(answers.length).toBeGreaterThan(30);
    expect(answers.filter((a) => !a.endsWith(' 404'))).toEqual([]);
  });

  it('refuses every route that declares permissions to a user without them (403)', async () => {
    const routes = productRoutes().filter(
      (r) => (t.app.routeAccess.get(`${r.method} ${r.url}`)?.permissions?.length ?? 0) > 0,
    );
    expect(routes.length).toBeGreaterThan(40);
    const answers: string[] = [];
    for (const r of routes) {
      const res = await call(nobody, r.method, r.url.replace(':id', String(ids.mine.cases)));
      answers.push(`${r.method} ${r.url} ${res.statusCode}`);
    }
    expect(answers.filter((a) => !a.endsWith(' 403'))).toEqual([]);
    // and the same user may still use what needs no permission
    const own = await call(nobody, 'GET', '/api/user/');
    expect(own.statusCode).toBe(200);
  });
});
