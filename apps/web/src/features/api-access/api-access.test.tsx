import type {
  ApiKeyOut,
  Permission,
  WebhookDeliveryOut,
  WebhookEndpointOut,
} from '@kestrel/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetSession, setSession } from '../../lib/session/session-store';
import { type Call, mockFetch } from '../../test/fetch-mock';
import { renderWithProviders } from '../../test/render';
import { boot, product, productIn } from '../../test/sessions';
import { ApiKeysSection } from './api-keys-section';
import { WebhooksSection } from './webhooks-section';

const KEY: ApiKeyOut = {
  id: 4,
  name: 'HR system',
  prefix: 'kst_Ab12Cd34',
  scopes: ['cases.view_case'],
  created_by: 'Ada Admin',
  created_at: '2026-11-01T09:00:00Z',
  last_used_at: '2026-11-20T10:30:00Z',
  revoked_at: null,
};
const ENDPOINT: WebhookEndpointOut = {
  id: 7,
  url: 'https://hr.example.test/hooks',
  description: 'New starters',
  events: ['case.created', 'case.completed'],
  is_enabled: true,
  disabled_reason: '',
  created_at: '2026-11-01T09:00:00Z',
  updated_at: '2026-11-01T09:00:00Z',
};
const DELIVERY: WebhookDeliveryOut = {
  id: 31,
  endpoint: 7,
  event: 'case.created',
  event_id: 'evt_1',
  status: 'failed',
  attempts: 8,
  response_status: 502,
  response_excerpt: 'Bad gateway',
  latency_ms: 120,
  error: '',
  created_at: '2026-11-02T09:00:00Z',
  last_attempt_at: '2026-11-03T09:00:00Z',
  next_attempt_at: null,
  delivered_at: null,
};
const page = <T,>(results: T[]) => ({ count: results.length, next: null, previous: null, results });

function signIn(permissions: Permission[]) {
  const p = product({ session_permissions: permissions });
  setSession({ ...productIn(p), bootstrap: boot(p) });
}

afterEach(() => {
  resetSession();
  vi.unstubAllGlobals();
});

describe('API keys section', () => {
  it('lists keys, creates one within the held permissions and shows its secret once', async () => {
    let keys = [KEY];
    const calls = mockFetch((call: Call) => {
      const path = new URL(call.url, 'http://x').pathname;
      if (path === '/api/api-keys/' && call.method === 'GET')
        return { status: 200, body: page(keys) };
      if (path === '/api/api-keys/' && call.method === 'POST') {
        const made = { ...KEY, id: 5, name: 'Payroll', secret: 'kst_SECRETSECRET' };
        keys = [made, ...keys];
        return { status: 201, body: made };
      }
      return { status: 404, body: {} };
    });
    signIn(['customers.change_customer', 'cases.view_case', 'cases.add_case']);
    renderWithProviders(<ApiKeysSection />);
    expect(await screen.findByText('HR system')).toBeTruthy();
    expect(screen.getByText('kst_Ab12Cd34…')).toBeTruthy();
    expect(screen.getByText('Ada Admin')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Create API key' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByRole('textbox', { name: /Name/ }), {
      target: { value: 'Payroll' },
    });
    // only what the administrator holds is offered
    expect(within(dialog).queryAllByRole('checkbox').length).toBeGreaterThan(0);
    expect(within(dialog).queryByText(/ops/i)).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create key' }));
    expect(await screen.findByText('kst_SECRETSECRET')).toBeTruthy();
    expect(screen.getByText('Copy it now: it will not be shown again.')).toBeTruthy();
    const post = calls.find((c) => c.method === 'POST');
    expect(post?.body).toEqual({ name: 'Payroll', scopes: ['cases.view_case'] });
  });

  it('revokes a key after confirmation', async () => {
    const calls = mockFetch((call: Call) => {
      if (call.method === 'GET') return { status: 200, body: page([KEY]) };
      if (call.method === 'DELETE') return { status: 204 };
      return { status: 404, body: {} };
    });
    signIn(['customers.change_customer', 'cases.view_case']);
    renderWithProviders(<ApiKeysSection />);
    fireEvent.click(await screen.findByRole('button', { name: 'Revoke' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/Revoke 'HR system'\?/)).toBeTruthy();
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Revoke key' }));
    await waitFor(() =>
      expect(calls.some((c) => c.method === 'DELETE' && c.url.endsWith('/api/api-keys/4/'))).toBe(
        true,
      ),
    );
  });
});

describe('webhooks section', () => {
  it('lists endpoints, adds one (secret once), shows the deliveries log and resends', async () => {
    const calls = mockFetch((call: Call) => {
      const path = new URL(call.url, 'http://x').pathname;
      if (path === '/api/webhook-endpoints/' && call.method === 'GET')
        return { status: 200, body: page([ENDPOINT]) };
      if (path === '/api/webhook-endpoints/' && call.method === 'POST')
        return { status: 201, body: { ...ENDPOINT, id: 8, secret: 'whsec_ONCE' } };
      if (path === '/api/webhook-endpoints/7/deliveries/')
        return { status: 200, body: page([DELIVERY]) };
      if (path === '/api/webhook-deliveries/31/resend/')
        return { status: 201, body: { ...DELIVERY, id: 32, status: 'pending' } };
      return { status: 404, body: {} };
    });
    signIn(['customers.change_customer']);
    renderWithProviders(<WebhooksSection />);
    expect(await screen.findByText('https://hr.example.test/hooks')).toBeTruthy();
    expect(screen.getByText('Case created')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Deliveries' }));
    const log = await screen.findByRole('table', { name: 'Deliveries' });
    expect(within(log).getByText('failed')).toBeTruthy();
    expect(within(log).getByText('120 ms')).toBeTruthy();
    expect(within(log).getByText(/502 Bad gateway/)).toBeTruthy();
    fireEvent.click(within(log).getByRole('button', { name: 'Resend' }));
    await waitFor(() =>
      expect(calls.some((c) => c.url.endsWith('/api/webhook-deliveries/31/resend/'))).toBe(true),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Add endpoint' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByRole('textbox', { name: /URL/ }), {
      target: { value: 'https://erp.example.test/in' },
    });
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Flag raised' }));
    // the DVLA re-consent's event (issue 33) is offered with its words
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Consent renewed' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add endpoint' }));
    expect(await screen.findByText('whsec_ONCE')).toBeTruthy();
    const post = calls.find(
      (c) => c.method === 'POST' && c.url.endsWith('/api/webhook-endpoints/'),
    );
    expect(post?.body).toEqual({
      url: 'https://erp.example.test/in',
      description: '',
      events: ['case.created', 'case.completed', 'flag.raised', 'consent.renewed'],
      is_enabled: true,
    });
  });

  it('sends a test event and shows a refused URL', async () => {
    const calls = mockFetch((call: Call) => {
      const path = new URL(call.url, 'http://x').pathname;
      if (path === '/api/webhook-endpoints/' && call.method === 'GET')
        return { status: 200, body: page([ENDPOINT]) };
      if (path === '/api/webhook-endpoints/' && call.method === 'POST')
        return { status: 400, body: { url: ['The address is private, loopback or link-local.'] } };
      if (path === '/api/webhook-endpoints/7/test/')
        return { status: 200, body: { ...DELIVERY, status: 'delivered', response_status: 200 } };
      if (path === '/api/webhook-endpoints/7/deliveries/') return { status: 200, body: page([]) };
      return { status: 404, body: {} };
    });
    signIn(['customers.change_customer']);
    renderWithProviders(<WebhooksSection />);
    fireEvent.click(await screen.findByRole('button', { name: 'Send test event' }));
    await waitFor(() =>
      expect(calls.some((c) => c.url.endsWith('/api/webhook-endpoints/7/test/'))).toBe(true),
    );
    expect(await screen.findByText('No deliveries yet.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Add endpoint' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByRole('textbox', { name: /URL/ }), {
      target: { value: 'http://127.0.0.1/x' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add endpoint' }));
    expect(await within(dialog).findByText(/private, loopback or link-local/)).toBeTruthy();
  });
});
