import type { SsoConfigIn, SsoConfigOut, SsoDiscoveryOut } from '@kestrel/domain';
import {
  Alert,
  Button,
  Checkbox,
  Group,
  Loader,
  Paper,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { ApiErrorBody } from '../../api/client';
import { actionErrorMessage, actionSuccessMessage, backendErrorLines } from '../../api/messages';
import { notify } from '../../lib/notify';
import { SSO_CONFIG_KEY, saveSsoConfig, testDiscovery, useSsoConfig } from './api';

type Field = 'issuer' | 'client_id' | 'client_secret' | 'allowed_domains';
const FIELDS: readonly Field[] = ['issuer', 'client_id', 'client_secret', 'allowed_domains'];
const ITEM = 'organisation sign-in';

/** Domains typed one per line, or separated by commas or spaces. */
export function parseDomains(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[\s,;]+/)
        .map((d) => d.trim().toLowerCase())
        .filter((d) => d !== ''),
    ),
  ];
}

function fieldErrorsOf(body: ApiErrorBody): Partial<Record<Field, string>> {
  const out: Partial<Record<Field, string>> = {};
  for (const f of FIELDS) {
    const v = body[f];
    if (Array.isArray(v)) out[f] = v.filter((x) => typeof x === 'string').join(' ');
  }
  return out;
}

function SsoForm({ config }: { config: SsoConfigOut }) {
  const client = useQueryClient();
  const titleId = useId();
  const [issuer, setIssuer] = useState(config.issuer);
  const [clientId, setClientId] = useState(config.client_id);
  const [secret, setSecret] = useState('');
  const [domains, setDomains] = useState(config.allowed_domains.join(', '));
  const [passwordAllowed, setPasswordAllowed] = useState(config.password_allowed);
  const [enabled, setEnabled] = useState(config.enabled);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [testing, setTesting] = useState(false);
  const [discovery, setDiscovery] = useState<SsoDiscoveryOut | null>(null);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setFormError(null);
    const body: SsoConfigIn = {
      issuer: issuer.trim(),
      client_id: clientId.trim(),
      allowed_domains: parseDomains(domains),
      password_allowed: passwordAllowed,
      enabled,
      ...(secret.trim() ? { client_secret: secret.trim() } : {}),
    };
    const r = await saveSsoConfig(body);
    setBusy(false);
    if (r.ok) {
      setErrors({});
      setSecret('');
      client.setQueryData(SSO_CONFIG_KEY, r.data);
      notify.success(actionSuccessMessage('update', ITEM));
      return;
    }
    const found = fieldErrorsOf(r.data);
    setErrors(found);
    const other = backendErrorLines(
      Object.fromEntries(Object.entries(r.data).filter(([k]) => !(FIELDS as string[]).includes(k))),
    );
    if (other.length > 0 || Object.keys(found).length === 0) {
      setFormError(other.length > 0 ? other.join('\n') : actionErrorMessage('update', ITEM));
    }
  };

  const test = async () => {
    setTesting(true);
    setDiscovery(null);
    const r = await testDiscovery(issuer.trim());
    setTesting(false);
    if (r.ok) setDiscovery(r.data);
    else {
      const found = fieldErrorsOf(r.data);
      if (found.issuer) setErrors((e) => ({ ...e, issuer: found.issuer }));
      else setFormError(actionErrorMessage('retrieve', 'discovery document'));
    }
  };

  return (
    <form onSubmit={submit} noValidate aria-labelledby={titleId}>
      <Stack gap="md">
        <div>
          <Title order={2} size="h3" id={titleId}>
            Sign-in through your organisation
          </Title>
          <Text size="sm" c="dimmed">
            Staff whose email is in one of the domains below sign in through your identity provider
            (OpenID Connect: Microsoft Entra ID, Google Workspace, Okta…).
          </Text>
        </div>
        {formError && (
          <Alert color="red" variant="light" role="alert" style={{ whiteSpace: 'pre-line' }}>
            {formError}
          </Alert>
        )}
        <TextInput
          label="Issuer"
          name="issuer"
          description="The provider's issuer address, e.g. https://login.microsoftonline.com/<tenant>/v2.0"
          required
          value={issuer}
          error={errors.issuer}
          onChange={(e) => setIssuer(e.currentTarget.value)}
        />
        <Group>
          <Button variant="default" onClick={test} loading={testing} disabled={!issuer.trim()}>
            Test discovery
          </Button>
        </Group>
        {testing && <Loader size="sm" aria-label="Testing discovery" />}
        {discovery && (
          <Alert
            color={discovery.ok ? 'teal' : 'red'}
            variant="light"
            role="status"
            data-testid="sso-discovery"
            title={discovery.ok ? 'The provider answered' : 'Discovery failed'}
          >
            <Text size="sm">{discovery.detail}</Text>
            {discovery.ok && discovery.authorization_endpoint && (
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                Sign-in page: {discovery.authorization_endpoint}
              </Text>
            )}
          </Alert>
        )}
        <TextInput
          label="Client ID"
          name="client_id"
          required
          value={clientId}
          error={errors.client_id}
          onChange={(e) => setClientId(e.currentTarget.value)}
        />
        <PasswordInput
          label="Client secret"
          name="client_secret"
          description={
            config.client_secret_set
              ? 'A secret is stored and never shown. Type a new one only to replace it.'
              : 'Given by your identity provider when you registered this application.'
          }
          autoComplete="new-password"
          value={secret}
          error={errors.client_secret}
          onChange={(e) => setSecret(e.currentTarget.value)}
        />
        <TextInput
          label="Email domains"
          name="allowed_domains"
          description="Separate several domains with commas, e.g. example.com, example.co.uk"
          required
          value={domains}
          error={errors.allowed_domains}
          onChange={(e) => setDomains(e.currentTarget.value)}
        />
        <Checkbox
          label="Staff of these domains may still sign in with a password"
          name="password_allowed"
          checked={passwordAllowed}
          onChange={(e) => setPasswordAllowed(e.currentTarget.checked)}
        />
        <Checkbox
          label="Organisation sign-in is switched on"
          name="enabled"
          checked={enabled}
          onChange={(e) => setEnabled(e.currentTarget.checked)}
        />
        {config.updated_at && (
          <Text size="sm" c="dimmed">
            Last changed {new Date(config.updated_at).toLocaleString('en-GB')}
            {config.updated_by ? ` by ${config.updated_by}` : ''}.
          </Text>
        )}
        <Group justify="flex-end">
          <Button type="submit" loading={busy}>
            Save sign-in settings
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * The administrator's card for the organisation's OpenID Connect sign-in (issuer, client id,
 * write-only secret, domains, whether passwords stay allowed, switched on), with a discovery
 * test. Shown on /customer-account; needs customers.change_customer.
 */
export function SsoSettings() {
  const q = useSsoConfig();
  return (
    <Paper withBorder p="lg" radius="md" data-testid="sso-settings">
      {q.isPending ? (
        <Loader aria-label="Loading sign-in settings" />
      ) : q.isError ? (
        <Alert color="red" variant="light" role="alert">
          {actionErrorMessage('retrieve', ITEM)}
        </Alert>
      ) : (
        <SsoForm key={q.data.updated_at ?? 'new'} config={q.data} />
      )}
    </Paper>
  );
}
