import { type DbsEnhancedProvider, dbsEnhancedProviderSchema } from '@kestrel/domain';
import { Accordion, SimpleGrid, TextInput } from '@mantine/core';
import { useState } from 'react';
import { issuesByField, type SummaryError } from '../../components/form-kit';
import { OpsFormFrame, serverFieldErrors, useOpsForm } from './ops-form';
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
  const [values, setValues] = useState<Values>(() => initialValues(saved));
  const form = useOpsForm();
  const { errors } = form;
  const id = (field: string) => `provider-${activityId}-${field}`;

  const submit = async () => {
    const check = dbsEnhancedProviderSchema.safeParse(values);
    if (!check.success) {
      form.refuse(issuesByField(check.error.issues));
      return;
    }
    await form.save(
      () => patchProcessingData(activityId, { provider_configuration: check.data }),
      (body) => serverFieldErrors(body, /^provider_configuration\./),
    );
  };

  const summary: SummaryError[] = PROVIDER_FIELDS.filter(([key]) => errors[key]).map(
    ([key, label]) => ({ field: id(key), label, message: errors[key] ?? '' }),
  );
  return (
    <Accordion variant="separated" chevronPosition="left" data-testid="provider-config">
      <Accordion.Item value="provider">
        <Accordion.Control id={id('title')}>DBS enhanced provider configuration</Accordion.Control>
        <Accordion.Panel>
          <OpsFormFrame
            titleId={id('title')}
            testId="provider-config-form"
            summary={summary}
            form={form}
            submitLabel="Save configuration"
            submitHeight={44}
            submitJustify="flex-end"
            onSubmit={submit}
          >
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
          </OpsFormFrame>
        </Accordion.Panel>
      </Accordion.Item>
    </Accordion>
  );
}
