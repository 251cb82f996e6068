import { describe, expect, it } from 'vitest';
import {
  evaluateRoutes,
  IDENTITY_CHECK_MESSAGES,
  type IdentityEvidence,
  identityCheckOutcome,
  identityGroupOf,
  PICKER_DOCUMENTS,
} from './dbs-identity-routes.js';

const route = (codes: string[], n: 1 | 2 | 3) =>
  evaluateRoutes(codes, 'standard-enhanced').find((r) => r.route === n);

describe('DBS identity routes', () => {
  it('groups every identity document as 1, 2a or 2b, statements showing an address', () => {
    expect(PICKER_DOCUMENTS.find((d) => d.code === 'passport')).toMatchObject({
      group: '1',
      showsAddress: false,
    });
    expect(PICKER_DOCUMENTS.find((d) => d.code === 'utility-bill')).toMatchObject({
      group: '2b',
      showsAddress: true,
    });
    expect(
      PICKER_DOCUMENTS.find((d) => d.code === 'photocard-driving-licence-uk')?.showsAddress,
    ).toBe(true);
    expect(PICKER_DOCUMENTS.length).toBeGreaterThan(25);
  });

  it('route 1: a Group 1 document and two more, one showing the address', () => {
    expect(route(['passport', 'bank-statement', 'utility-bill'], 1)).toMatchObject({
      met: true,
      missing: [],
    });
    expect(route(['passport', 'bank-statement'], 1)?.missing).toEqual([
      '1 more document from Group 1, 2a or 2b',
    ]);
    expect(route(['bank-statement', 'utility-bill', 'p45-p60'], 1)?.missing).toEqual([
      'a Group 1 document',
    ]);
    expect(route(['passport', 'e-visa', 'hm-forces-id'], 1)?.missing).toEqual([
      'a document showing the current address',
    ]);
    expect(route([], 1)?.missing).toEqual([
      'a Group 1 document',
      '2 more documents from Group 1, 2a or 2b',
      'a document showing the current address',
    ]);
  });

  it('route 2: a Group 2a document and two more from 2a or 2b', () => {
    expect(route(['marriage-certificate', 'bank-statement', 'utility-bill'], 2)?.met).toBe(true);
    // a Group 1 document does not count for route 2
    expect(route(['passport', 'marriage-certificate', 'utility-bill'], 2)?.missing).toEqual([
      '1 more document from Group 2a or 2b',
    ]);
  });

  it('route 3: a later birth certificate, another 2a and three more', () => {
    const five = [
      'birth-certificate-later',
      'marriage-certificate',
      'bank-statement',
      'utility-bill',
      'p45-p60',
    ];
    expect(route(five, 3)?.met).toBe(true);
    expect(route(five.slice(0, 4), 3)?.missing).toEqual(['1 more document from Group 2a or 2b']);
    expect(route(five.slice(2), 3)?.missing).toEqual([
      'a birth certificate issued after the time of birth',
      'another Group 2a document',
    ]);
  });

  it('basic: two documents, one from Group 1', () => {
    expect(evaluateRoutes(['passport', 'utility-bill'], 'basic')).toEqual([
      { route: 1, title: 'Basic check', met: true, missing: [] },
    ]);
    expect(evaluateRoutes(['passport'], 'basic')[0]?.missing).toEqual([
      '1 more document from any group',
      'a document showing the current address',
    ]);
    expect(evaluateRoutes(['utility-bill', 'bank-statement'], 'basic')[0]?.missing).toEqual([
      'a Group 1 document',
    ]);
    expect(evaluateRoutes(['utility-bill'], 'basic')[0]?.missing).toEqual(['a Group 1 document']);
  });
});

describe('identity check outcome (verification)', () => {
  const evidence = (over: Partial<IdentityEvidence>): IdentityEvidence => ({
    level: 'standard-enhanced',
    idvOption: 'in-person',
    documentCodes: [],
    onlineIdvPassed: false,
    ...over,
  });
  const route1 = ['passport', 'bank-statement', 'utility-bill'];
  const route2 = ['firearms-licence', 'bank-statement', 'utility-bill'];
  const route3 = [
    'birth-certificate-later',
    'marriage-certificate',
    'bank-statement',
    'utility-bill',
    'p45-p60',
  ];

  it('needs a verification option first', () => {
    expect(identityCheckOutcome(evidence({ idvOption: '' }))).toEqual({
      basis: null,
      met: false,
      route: null,
      problem: IDENTITY_CHECK_MESSAGES.noOption,
    });
  });

  it('online: met only when the online identity check passed, documents aside', () => {
    expect(identityCheckOutcome(evidence({ idvOption: 'online', onlineIdvPassed: true }))).toEqual({
      basis: 'online',
      met: true,
      route: null,
      problem: '',
    });
    expect(
      identityCheckOutcome(evidence({ idvOption: 'online', documentCodes: route1 })),
    ).toMatchObject({ met: false, problem: IDENTITY_CHECK_MESSAGES.onlineNotPassed });
  });

  it.each(['in-person', 'video-call'])('%s: the first route the documents satisfy', (opt) => {
    expect(identityCheckOutcome(evidence({ idvOption: opt, documentCodes: route1 }))).toEqual({
      basis: 'documents',
      met: true,
      route: 1,
      problem: '',
    });
    expect(identityCheckOutcome(evidence({ idvOption: opt, documentCodes: route3 }))).toMatchObject(
      { met: true, route: 3 },
    );
  });

  it('Route 2 needs the online identity check as its external validation', () => {
    expect(identityCheckOutcome(evidence({ documentCodes: route2 }))).toMatchObject({
      met: false,
      route: null,
      problem: IDENTITY_CHECK_MESSAGES.route2Validation,
    });
    expect(
      identityCheckOutcome(evidence({ documentCodes: route2, onlineIdvPassed: true })),
    ).toMatchObject({ met: true, route: 2 });
    // a passed online check does not lift Route 1 above itself
    expect(
      identityCheckOutcome(evidence({ documentCodes: route1, onlineIdvPassed: true })),
    ).toMatchObject({ route: 1 });
  });

  it('says what Route 1 (or the basic route) still needs', () => {
    expect(identityCheckOutcome(evidence({ documentCodes: ['passport'] })).problem).toBe(
      'The documents collected do not meet an identity checking route. Route 1 still needs: 2 more documents from Group 1, 2a or 2b; a document showing the current address.',
    );
    expect(identityCheckOutcome(evidence({ documentCodes: [] })).problem).toBe(
      IDENTITY_CHECK_MESSAGES.routesNotMet([
        'a Group 1 document',
        '2 more documents from Group 1, 2a or 2b',
        'a document showing the current address',
      ]),
    );
    expect(
      identityCheckOutcome(evidence({ level: 'basic', documentCodes: ['utility-bill'] })),
    ).toMatchObject({
      met: false,
      problem:
        "The documents collected do not meet the basic check's identity route. Still needed: a Group 1 document.",
    });
    expect(
      identityCheckOutcome(
        evidence({ level: 'basic', documentCodes: ['passport', 'utility-bill'] }),
      ),
    ).toMatchObject({ met: true, route: 1 });
  });

  it('counts identity documents only, each type once', () => {
    // right-to-work only documents and repeats of one type do not make up a route
    expect(
      identityCheckOutcome(
        evidence({ documentCodes: ['passport', 'bank-statement', 'bank-statement'] }),
      ).met,
    ).toBe(false);
    expect(identityGroupOf('passport')).toBe('1');
    expect(identityGroupOf('firearms-licence')).toBe('2a');
    expect(identityGroupOf('utility-bill')).toBe('2b');
    expect(identityGroupOf('not-a-document')).toBe('');
  });
});
