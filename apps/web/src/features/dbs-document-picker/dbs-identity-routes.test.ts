import { describe, expect, it } from 'vitest';
import { evaluateRoutes, PICKER_DOCUMENTS } from './dbs-identity-routes';

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
      'a document that shows your current address',
    ]);
    expect(route([], 1)?.missing).toEqual([
      'a Group 1 document',
      '2 more documents from Group 1, 2a or 2b',
      'a document that shows your current address',
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
      'a document that shows your current address',
    ]);
    expect(evaluateRoutes(['utility-bill', 'bank-statement'], 'basic')[0]?.missing).toEqual([
      'a Group 1 document',
    ]);
    expect(evaluateRoutes(['utility-bill'], 'basic')[0]?.missing).toEqual(['a Group 1 document']);
  });
});
