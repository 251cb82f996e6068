import { describe, expect, it } from 'vitest';
import {
  apiKeyCreate,
  consentRenewedEventData,
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_EVENTS,
  webhookEndpointCreate,
  webhookEndpointUpdate,
} from './api-access.js';

describe('API keys and webhook endpoints contract', () => {
  it('takes a key with customer permissions only, each named when refused', () => {
    expect(apiKeyCreate.parse({ name: ' HR system ', scopes: ['cases.view_case'] })).toEqual({
      name: 'HR system',
      scopes: ['cases.view_case'],
    });
    const bad = apiKeyCreate.safeParse({ name: 'HR', scopes: ['cases.view_case', 'nope.nope'] });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues.map((i) => i.message)).toEqual([
      '"nope.nope" is not a valid permission.',
    ]);
    // ops-only permissions are not a customer's
    expect(apiKeyCreate.safeParse({ name: 'HR', scopes: ['customers.ops_access'] }).success).toBe(
      false,
    );
    expect(apiKeyCreate.safeParse({ name: 'HR', scopes: [] }).error?.issues[0]?.message).toBe(
      'Choose at least one permission.',
    );
  });

  it('takes an endpoint with an http(s) address and its events', () => {
    expect(
      webhookEndpointCreate.parse({
        url: 'https://hr.example.test/hooks',
        events: ['case.created'],
      }),
    ).toEqual({
      url: 'https://hr.example.test/hooks',
      description: '',
      events: ['case.created'],
      is_enabled: true,
    });
    for (const url of ['ftp://hr.example.test/', 'not a url', 'https://']) {
      const r = webhookEndpointCreate.safeParse({ url, events: ['case.created'] });
      expect([url, r.error?.issues[0]?.message]).toEqual([url, 'Enter a valid URL.']);
    }
    expect(webhookEndpointUpdate.parse({ is_enabled: false })).toEqual({ is_enabled: false });
  });

  it('lists consent.renewed with its words, and its data holds ids and dates only', () => {
    expect(WEBHOOK_EVENTS).toContain('consent.renewed');
    expect(WEBHOOK_EVENT_LABELS['consent.renewed']).toBe('Consent renewed');
    expect(
      webhookEndpointCreate.parse({ url: 'https://hr.example.test/', events: ['consent.renewed'] })
        .events,
    ).toEqual(['consent.renewed']);
    const consent = {
      id: 12,
      replaces: 7,
      kind: 'driver-data',
      case: 3,
      case_activity: 5,
      renewed_at: '2026-11-29T10:00:00.000Z',
      expires_at: '2029-11-29T10:00:00.000Z',
      replaced_expires_at: '2026-12-20T00:00:00.000Z',
    };
    expect(consentRenewedEventData.parse({ consent })).toEqual({ consent });
    expect(
      consentRenewedEventData.safeParse({ consent: { ...consent, name: 'Ada' } }).success,
    ).toBe(false);
  });
});
