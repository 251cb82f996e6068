import '@mantine/core/styles/List.css';
import {
  type CaseRtwDetailsOut,
  isBritishNationality,
  normaliseShareCode,
  RTW_DOCUMENT_TYPES,
  RTW_ROUTE_LABELS,
  RTW_ROUTES,
  rtwDetailsIn,
} from '@kestrel/domain';
import { Alert, List, Stack, Text, TextInput } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { schemaResolver } from '../../../components/form-kit';
import type { PortalSectionProps } from '../section-contract';
import { SectionShell } from '../section-shell';
import { rtwDetails, saveRecord, sectionKeys } from './dbs-application/api';
import { ChoiceCards, messageOf, summaryOf, TouchTargets } from './dbs-application/fields';
import { applyServerErrors, useSectionDraft } from './dbs-application/section-kit';

interface RtwForm {
  route: string;
  share_code: string;
}

const LABELS = { route: 'How you will prove your right to work', share_code: 'Share code' };

const HINTS: Record<(typeof RTW_ROUTES)[number], string> = {
  'share-code':
    'Get a share code from the Home Office “Prove your right to work” service. It starts with W and lasts 90 days.',
  documents:
    'British and Irish citizens, and anyone without a share code, show original documents from the right to work list.',
};

/**
 * The portal's rtw section (issue 16): the route to prove the right to work, a share code for
 * the Home Office online check or documents from the right-to-work list (collected in the
 * document collection section), stored in case-rtw-details.
 */
export default function RtwSection({ caseId, portal, readOnly, complete }: PortalSectionProps) {
  const client = useQueryClient();
  const record = useQuery(rtwDetails(caseId));
  const form = useForm<RtwForm>({
    resolver: schemaResolver<RtwForm>(() => rtwDetailsIn),
    defaultValues: { route: '', share_code: '' },
    // Checked on Continue (GOV.UK): no message moves the button while it is pressed.
    mode: 'onSubmit',
  });
  const once = useRef(false);
  useEffect(() => {
    if (record.data === undefined || once.current) return;
    once.current = true;
    form.reset({ route: record.data?.route ?? '', share_code: record.data?.share_code ?? '' });
  }, [record.data, form]);
  const dropDraft = useSectionDraft(form, caseId, 'rtw', record.data !== undefined);
  const route = useWatch({ control: form.control, name: 'route' });
  const british = isBritishNationality(portal.basic_details?.nationality);

  const save = async (strict: boolean): Promise<boolean> => {
    const valid = await form.trigger();
    if (!valid) return !strict;
    const v = form.getValues();
    try {
      const saved = await saveRecord<CaseRtwDetailsOut>(
        'case-rtw-details',
        caseId,
        { route: v.route, share_code: v.route === 'share-code' ? v.share_code : '' },
        true,
      );
      client.setQueryData(sectionKeys.record('case-rtw-details', caseId), saved);
      dropDraft();
      return true;
    } catch (error) {
      if (applyServerErrors(form, error)) return false;
      throw error;
    }
  };

  const shareCode = form.register('share_code');
  const listA = RTW_DOCUMENT_TYPES.filter((d) => d.group === 'A').slice(0, 6);
  return (
    <SectionShell
      intro="Your employer must check that you are allowed to work in the UK. Choose how you will prove it."
      loading={record.isPending}
      errors={summaryOf(form.formState.errors, LABELS)}
      onContinue={async () => {
        if (await save(true)) await complete();
      }}
      onBack={() => save(false)}
    >
      {record.isError && (
        <Alert color="red" variant="light">
          Your details could not be loaded. Please try again.
        </Alert>
      )}
      <TouchTargets>
        <Stack gap="lg">
          <ChoiceCards
            form={form}
            name="route"
            label={LABELS.route}
            disabled={readOnly}
            options={RTW_ROUTES.map((r) => ({
              value: r,
              label: RTW_ROUTE_LABELS[r],
              hint: HINTS[r],
            }))}
            description={
              british
                ? 'British and Irish citizens have no share code: choose documents.'
                : undefined
            }
          />
          {route === 'share-code' && (
            <TextInput
              id="share_code"
              size="md"
              label={LABELS.share_code}
              description="9 characters, for example W12 345 67X."
              autoComplete="off"
              autoCapitalize="characters"
              withAsterisk
              readOnly={readOnly}
              error={messageOf(form.formState.errors, 'share_code')}
              {...shareCode}
              onBlur={(e) => {
                e.currentTarget.value = normaliseShareCode(e.currentTarget.value);
                form.setValue('share_code', e.currentTarget.value);
                return shareCode.onBlur(e);
              }}
            />
          )}
          {route === 'documents' && (
            <Stack gap="xs" data-testid="rtw-documents">
              <Text size="sm">
                You will upload them in Document collection. Documents you can use include:
              </Text>
              <List size="sm" spacing={4}>
                {listA.map((d) => (
                  <List.Item key={d.code}>{d.name}</List.Item>
                ))}
              </List>
            </Stack>
          )}
        </Stack>
      </TouchTargets>
    </SectionShell>
  );
}
