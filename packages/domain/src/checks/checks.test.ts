import { describe, expect, it } from 'vitest';
import { ACTIVITY_KINDS, DBS_CHECK_CODES } from '../activity-kinds.js';
import { applicationCallbackSchema } from './disclosure.js';
import {
  CHECK_PROVIDERS,
  COUNTERSIGNED_KINDS,
  checkProviderOf,
  ENGINE_RUN_KINDS,
  isCountersignedKind,
  isEngineRunKind,
  RESULT_DATA_KINDS,
  RESULT_DATA_SCHEMAS,
} from './kinds.js';
import {
  processingDataSchema as dataSchema,
  initialProcessingData,
  isHandMoveAllowed,
  MAX_PROCESSING_EVENTS,
  PROCESSING_LOG_HEAD,
  processingDataSchema,
  providerConfigurationOf,
  redact,
  sameJson,
  withEvent,
} from './processing.js';
import { checkLevel, isTopUpKind, priceListTopUp, topUpSchema } from './top-up.js';

describe('the price list top-up', () => {
  it('demands the paper certificate surcharge of the criminal-record kinds only', () => {
    expect(priceListTopUp('dbs-basic', { paper_cert: true })).toEqual({
      amount_pence: 350,
      reason: 'Paper certificate by post',
    });
    expect(priceListTopUp('dbs-enhanced', { paper_cert: false })).toBeNull();
    expect(priceListTopUp('dbs-standard', {})).toBeNull();
    expect(priceListTopUp('dbs-update', { paper_cert: true })).toBeNull();
    expect(checkLevel({ paper_cert: null })).toBe('online');
    expect(isTopUpKind('rtw')).toBe(false);
  });

  it('validates the top-up shape', () => {
    const ok = { amount_pence: 350, reason: 'x', status: 'awaiting', payment_intent: null };
    expect(topUpSchema.safeParse(ok).success).toBe(true);
    expect(topUpSchema.safeParse({ ...ok, amount_pence: 0 }).success).toBe(false);
    expect(topUpSchema.safeParse({ ...ok, status: 'refunded' }).success).toBe(false);
  });
});

describe('processing data', () => {
  it('starts valid and appends redacted events, keeping event ids', () => {
    const start = initialProcessingData('ebulk', 'ca-1');
    expect(processingDataSchema.parse(start)).toEqual(start);
    const next = withEvent(start, {
      at: '2026-01-01T00:00:00.000Z',
      type: 'callback',
      event_id: 'e1',
      body: { reference: 'R', api_key: 'k', nested: [{ image: 'b64', ok: 1 }] },
    });
    expect(next.event_ids).toEqual(['e1']);
    expect(next.events[0]?.body).toEqual({
      reference: 'R',
      api_key: '[redacted]',
      nested: [{ image: '[redacted]', ok: 1 }],
    });
    expect(processingDataSchema.safeParse(next).success).toBe(true);
    // payment secrets and API keys in any case
    expect(
      redact({ client_secret: 'pi_1_secret', 'X-Api-Key': 'k', apiKey: 'k', Authorization: 'B' }),
    ).toEqual({
      client_secret: '[redacted]',
      'X-Api-Key': '[redacted]',
      apiKey: '[redacted]',
      Authorization: '[redacted]',
    });
  });

  it('folds an event repeating the last one into it, counted', () => {
    let d = initialProcessingData('dbs-basic', 'k');
    d = withEvent(d, { at: 't0', type: 'request', body: { reference: 'R' } });
    for (const at of ['t1', 't2', 't3']) {
      d = withEvent(d, { at, type: 'poll', body: { stage: 2, token: 'x' } });
    }
    expect(d.events).toEqual([
      { at: 't0', type: 'request', body: { reference: 'R' } },
      {
        at: 't3',
        type: 'poll',
        body: { stage: 2, token: '[redacted]' },
        repeats: 3,
        first_at: 't1',
      },
    ]);
    // a different answer, another type, or a callback (its event id) is a new event
    d = withEvent(d, { at: 't4', type: 'poll', body: { stage: 3 } });
    d = withEvent(d, { at: 't5', type: 'error', body: { stage: 3 } });
    d = withEvent(d, { at: 't6', type: 'callback', event_id: 'e1', body: { stage: 3 } });
    d = withEvent(d, { at: 't7', type: 'callback', event_id: 'e2', body: { stage: 3 } });
    expect(d.events.map((e) => [e.at, e.repeats])).toEqual([
      ['t0', undefined],
      ['t3', 3],
      ['t4', undefined],
      ['t5', undefined],
      ['t6', undefined],
      ['t7', undefined],
    ]);
    expect(processingDataSchema.safeParse(d).success).toBe(true);
  });

  it('keeps at most the log head and the last events', () => {
    let d = initialProcessingData('dbs-basic', 'k');
    for (let i = 0; i < MAX_PROCESSING_EVENTS + 5; i++) {
      d = withEvent(d, { at: String(i), type: 'poll', body: { i } });
    }
    expect(d.events).toHaveLength(MAX_PROCESSING_EVENTS);
    // the head (the submission and first answers) is kept; the oldest after it are dropped
    expect(d.events[0]?.body).toEqual({ i: 0 });
    expect(d.events[PROCESSING_LOG_HEAD - 1]?.body).toEqual({ i: PROCESSING_LOG_HEAD - 1 });
    expect(d.events[PROCESSING_LOG_HEAD]?.body).toEqual({ i: PROCESSING_LOG_HEAD + 5 });
    expect(d.events.at(-1)?.body).toEqual({ i: MAX_PROCESSING_EVENTS + 4 });
    expect(processingDataSchema.safeParse(d).success).toBe(true);
    expect(redact('plain')).toBe('plain');
  });

  it('refuses a malformed callback', () => {
    const good = {
      event_id: 'e',
      reference: 'R',
      status: 'in-progress',
      stage: 1,
      stages: [],
      received_date: '2026-01-01',
      disclosure: null,
      barred_lists: [],
      top_up: null,
    };
    expect(applicationCallbackSchema.safeParse(good).success).toBe(true);
    expect(applicationCallbackSchema.safeParse({ ...good, stage: 7 }).success).toBe(false);
    expect(applicationCallbackSchema.safeParse({ ...good, event_id: '' }).success).toBe(false);
    // the certificate's assembled and despatched dates and the manual flag are optional
    const certificate = {
      ...good,
      status: 'complete',
      certificate_assembled_date: '2026-01-02',
      certificate_despatched_date: null,
      disclosure: {
        status: 'clear',
        certificate_number: '123456789012',
        issue_date: '2026-01-03',
        manual_certificate: true,
      },
    };
    expect(applicationCallbackSchema.parse(certificate)).toMatchObject({
      certificate_assembled_date: '2026-01-02',
      certificate_despatched_date: null,
      disclosure: { manual_certificate: true },
    });
    expect(
      applicationCallbackSchema.safeParse({ ...certificate, certificate_assembled_date: '2 Jan' })
        .success,
    ).toBe(false);
    expect(
      applicationCallbackSchema.safeParse({
        ...certificate,
        disclosure: { ...certificate.disclosure, manual_certificate: 'yes' },
      }).success,
    ).toBe(false);
  });
});

describe('hand edits of an engine-run activity', () => {
  it('knows the kinds the engine runs', () => {
    expect(isEngineRunKind('dbs-enhanced')).toBe(true);
    expect(isEngineRunKind('dbs-update')).toBe(true);
    expect(isEngineRunKind('adult-first')).toBe(false);
    expect(isEngineRunKind('basic-details')).toBe(false);
    expect(isCountersignedKind('dbs-standard')).toBe(true);
    expect(isCountersignedKind('dbs-enhanced')).toBe(true);
    expect(isCountersignedKind('dbs-basic')).toBe(false);
    expect(isCountersignedKind('dbs-update')).toBe(false);
  });

  it('cancelled at any time; otherwise decided only once it waits for a decision', () => {
    expect(isHandMoveAllowed('ca-in-progress', 'ca-cancelled')).toBe(true);
    expect(isHandMoveAllowed('ca-awaiting-agent', 'ca-cancelled')).toBe(true);
    expect(isHandMoveAllowed('ca-pending-activity-decision', 'ca-complete')).toBe(true);
    expect(isHandMoveAllowed('ca-awaiting-agent', 'ca-in-progress')).toBe(false);
    expect(isHandMoveAllowed('ca-in-progress', 'ca-complete')).toBe(false);
    expect(isHandMoveAllowed('ca-error-initiating', 'ca-in-progress')).toBe(false);
  });

  it('reads the provider configuration operations saved, from any data', () => {
    const config = {
      forename: 'Pat',
      surname: 'Lee',
      email: 'pat@acme.test',
      manager_forename: 'Max',
      manager_surname: 'Doe',
      manager_email: 'max@acme.test',
      position: 'HR lead',
      id_verifier_username: 'verifier1',
      email_group: 'dbs@acme.test',
    };
    expect(providerConfigurationOf({ provider_configuration: config })).toEqual(config);
    expect(providerConfigurationOf({ provider_configuration: { forename: 'x' } })).toBeUndefined();
    expect(providerConfigurationOf(null)).toBeUndefined();
    expect(providerConfigurationOf('x')).toBeUndefined();
    // the engine's data keeps it
    expect(
      dataSchema.safeParse({
        provider: 'ebulk',
        reference: null,
        idempotency_key: 'k',
        attempts: 0,
        last_error: null,
        stage: null,
        event_ids: [],
        events: [],
        top_up: null,
        provider_configuration: config,
      }).success,
    ).toBe(true);
  });
});

describe('the views of the activity-kind registry', () => {
  it('derives the engine kinds, their providers and the countersigned ones from the entries', () => {
    expect([...ENGINE_RUN_KINDS].sort()).toEqual([
      'dbs-basic',
      'dbs-enhanced',
      'dbs-standard',
      'dbs-update',
      'driver-data',
      'knowledge-test',
      'licence-check',
      'online-idv',
      'rtw',
    ]);
    expect([...CHECK_PROVIDERS].sort()).toEqual([
      'davis',
      'dbs-basic',
      'dbs-update-service',
      'dvla',
      'ebulk',
      'home-office-rtw',
      'idv',
      'test-platform',
    ]);
    expect([...COUNTERSIGNED_KINDS].sort()).toEqual(['dbs-enhanced', 'dbs-standard']);
    expect(checkProviderOf('dbs-standard')).toBe('ebulk');
    expect(checkProviderOf('dbs-update')).toBe('dbs-update-service');
    for (const code of ENGINE_RUN_KINDS) {
      expect(ACTIVITY_KINDS[code].engine.provider).toBe(checkProviderOf(code));
      // every kind the engine runs has typed result data
      expect(RESULT_DATA_KINDS).toContain(code);
    }
  });

  it('types the result data of every entry with a result schema, and only those', () => {
    expect([...RESULT_DATA_KINDS].sort()).toEqual([
      'adult-first',
      'dbs-basic',
      'dbs-enhanced',
      'dbs-standard',
      'dbs-update',
      'driver-data',
      'knowledge-test',
      'licence-check',
      'online-idv',
      'rtw',
      'trust-to-ride',
    ]);
    expect(RESULT_DATA_SCHEMAS['dbs-update']).toBe(ACTIVITY_KINDS['dbs-update'].result);
  });
});

describe('the criminal-record family', () => {
  it('is the kinds the registry shows as a DBS result', () => {
    expect([...DBS_CHECK_CODES]).toEqual(['dbs-basic', 'dbs-standard', 'dbs-enhanced']);
  });
});

describe('sameJson', () => {
  it('compares JSON values whatever the order of their keys', () => {
    expect(sameJson({ a: 1, b: [1, { c: 2, d: null }] }, { b: [1, { d: null, c: 2 }], a: 1 })).toBe(
      true,
    );
    // an undefined property is not in JSON
    expect(sameJson({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(sameJson({ a: 1 }, { a: 2 })).toBe(false);
    expect(sameJson({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(sameJson([1, 2], [2, 1])).toBe(false);
    expect(sameJson([1], [1, 2])).toBe(false);
    expect(sameJson([1], { 0: 1 })).toBe(false);
    expect(sameJson(null, {})).toBe(false);
    expect(sameJson('x', 'x')).toBe(true);
    expect(sameJson(1, '1')).toBe(false);
  });

  it('folds a repeated event read back with its keys in another order', () => {
    let d = initialProcessingData('dbs-basic', 'k');
    d = withEvent(d, { at: 't1', type: 'poll', body: { reference: 'R', status: 'in-progress' } });
    // as jsonb gives it back: keys sorted by length, then bytes
    d = {
      ...d,
      events: d.events.map((e) => ({ ...e, body: { status: 'in-progress', reference: 'R' } })),
    };
    d = withEvent(d, { at: 't2', type: 'poll', body: { reference: 'R', status: 'in-progress' } });
    expect(d.events).toHaveLength(1);
    expect(d.events[0]).toMatchObject({ at: 't2', repeats: 2, first_at: 't1' });
  });
});
