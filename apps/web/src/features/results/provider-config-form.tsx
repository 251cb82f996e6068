import { type DbsEnhancedProvider, dbsEnhancedProviderSchema } from '@kestrel/domain';
import { Accordion, Button, Group, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { notify } from '../../lib/notify';
import { ErrorSummary, issuesByField, type SummaryError } from './error-summary';
import { patchProcessingData } from './results-api';

export const PROVIDER_FIELDS = [
  ['forename', 'Forename'],
  ['surname', 'Surname'],
  ['email', 'Email'],
  ['manager_forename', 'Manager forename'],
  ['manager_surname', 'Manager surname'],
  ['manager_email', 'Manager email'],
  ['position', 'Position'],
  ['id_verifier_username', 'ID verifier username'],
  ['email_group', 'Email group'],
] as const satisfies readonly (readonly [keyof DbsEnhancedProvider, string])[];

type Values = Record<keyof DbsEnhancedProvider, string>;

function initialValues(saved: unknown): Values {
  const src = typeof saved === 'object' && saved !== null ? (saved as Record<string, unknown>) : {};
  const out = {} as Values;
  for (const [key] of PROVIDER_FIELDS) {
    const v = src[key];
    out[key] = typeof v === 'string' ? v : '';
  }
  return out;
}

/**
 * The DBS enhanced provider configuration form (operations, spec point 5): nine required
 * fields, emails valid; saved into the activity's processing data.
 */
export function ProviderConfigForm({ activityId, saved }: { activityId: number; saved: unknown }) {
  const client = useQueryClient();
  const [values, setValues] = useState<Values>(() => initialValues(saved));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [attempt, setAttempt] = useState(0);
  const [saving, setSaving] = useState(false);
  const id = (field: string) => `provider-${activityId}-${field}`;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const check = dbsEnhancedProviderSchema.safeParse(values);
    if (!check.success) {
      setErrors(issuesByField(check.error.issues));
      setAttempt((n) => n + 1);
      return;
    }
    setSaving(true);
    const r = await patchProcessingData(activityId, { provider_configuration: check.data });
    setSaving(false);
    if (!r.ok) {
      const fieldErrors: Record<string, string> = {};
      for (const [key, value] of Object.entries(r.data)) {
        if (Array.isArray(value)) {
          fieldErrors[key.replace(/^provider_configuration\./, '')] = value.join(' ');
        }
      }
      setErrors(fieldErrors);
      setAttempt((n) => n + 1);
      notify.error('Error updating case activity');
      return;
    }
    setErrors({});
    notify.success('Successfully updated case activity');
    await client.invalidateQueries();
  };

  const summary: SummaryError[] = PROVIDER_FIELDS.filter(([key]) => errors[key]).map(
    ([key, label]) => ({ field: id(key), label, message: errors[key] ?? '' }),
  );
  return (
    <Accordion variant="separated" chevronPosition="left" data-testid="provider-config">
      <Accordion.Item value="provider">
        <Accordion.Control id={id('title')}>DBS enhanced provider configuration</Accordion.Control>
        <Accordion.Panel>
          <form
            onSubmit={submit}
            noValidate
            aria-labelledby={id('title')}
            data-testid="provider-config-form"
          >
            <Stack gap="sm">
              <ErrorSummary errors={summary} attempt={attempt} />
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
                {PROVIDER_FIELDS.map(([key, label]) => (
                  <TextInput
                    key={key}
                    id={id(key)}
                    label={label}
                    withAsterisk
                    type={key.endsWith('email') || key === 'email_group' ? 'email' : 'text'}
                    value={values[key]}
                    onChange={(e) => {
                      const v = e.currentTarget.value;
                      setValues((old) => ({ ...old, [key]: v }));
                    }}
                    error={errors[key]}
                  />
                ))}
              </SimpleGrid>
              <Group justify="flex-end">
                <Button h={44} type="submit" loading={saving}>
                  Save configuration
                </Button>
              </Group>
            </Stack>
          </form>
        </Accordion.Panel>
      </Accordion.Item>
    </Accordion>
  );
}
