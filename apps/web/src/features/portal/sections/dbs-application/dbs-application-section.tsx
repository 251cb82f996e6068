import {
  type CaseBirthDetailsOut,
  type CaseDbsDetailsSubjectOut,
  confirmationSchema,
  dbsApplicationSection,
  IDV_OPTION_LABELS,
  IDV_OPTIONS,
  PORTAL_SECTION_LABELS,
  showsCounty,
} from '@kestrel/domain';
import { Alert, Anchor, Fieldset, SimpleGrid, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef } from 'react';
import { type DefaultValues, useForm, useWatch } from 'react-hook-form';
import { Link } from 'react-router';
import { z } from 'zod';
import {
  CountryField,
  DateField,
  DbsTextField,
  schemaResolver,
} from '../../../../components/form-kit';
import { usePortalFrame } from '../../frame-context';
import type { PortalSectionProps } from '../../section-contract';
import { SectionShell } from '../../section-shell';
import { DbsApplicationAnswers } from '../../summaries';
import {
  activeConsent,
  birthDetails,
  consentsOptions,
  dbsDetails,
  giveConsent,
  saveRecord,
  sectionKeys,
} from './api';
import {
  APPLICATION_LABELS,
  type ApplicationForm,
  applicationCrossChecks,
  applicationSchema,
  NAME_FIELDS,
  namesNeedingAlternative,
} from './application-form';
import {
  ChoiceCards,
  ConfirmBox,
  FieldAnchor,
  Legend,
  NameForDbs,
  summaryOf,
  TouchTargets,
} from './fields';
import { applyServerErrors, isoToday, plusYears, useSectionDraft } from './section-kit';

export type DbsLevel = 'dbs-basic' | 'dbs-standard' | 'dbs-enhanced';

const LEVELS: Record<DbsLevel, { name: string; shows: string }> = {
  'dbs-basic': {
    name: 'basic',
    shows: 'A basic check shows unspent convictions and conditional cautions.',
  },
  'dbs-standard': {
    name: 'standard',
    shows:
      'A standard check shows spent and unspent convictions, cautions, reprimands and final warnings.',
  },
  'dbs-enhanced': {
    name: 'enhanced',
    shows:
      'An enhanced check shows what a standard check shows, any information local police think relevant and, when the role needs it, the barred lists.',
  },
};

/** A later level of a case with several: only its own consent is asked. */
const consentOnlySchema = z.object({ declaration: confirmationSchema });

const IDV_HINTS: Record<(typeof IDV_OPTIONS)[number], string> = {
  online: 'With a digital identity app. You need a UK or Irish passport.',
  'in-person': 'Show your original documents to the person checking them.',
  'video-call': 'Show your original documents on a video call.',
};

const text = (v: string | null | undefined) => v ?? '';

function toForm(
  names: Partial<Record<string, string>>,
  birth: CaseBirthDetailsOut | null | undefined,
  dbs: CaseDbsDetailsSubjectOut | null | undefined,
): ApplicationForm {
  return {
    forename: text(names.forename),
    forename_dbs: text(names.forename_dbs),
    middlename: text(names.middlename),
    middlename_dbs: text(names.middlename_dbs),
    surname: text(names.surname),
    surname_dbs: text(names.surname_dbs),
    country: text(birth?.country),
    country_dbs: text(birth?.country_dbs),
    town: text(birth?.town),
    town_dbs: text(birth?.town_dbs),
    county: text(birth?.county),
    county_dbs: text(birth?.county_dbs),
    idv_option: text(dbs?.idv_option),
    video_call_date: text(dbs?.video_call_date),
    in_person_expected_date: text(dbs?.in_person_expected_date),
    declaration: false,
  };
}

/**
 * The criminal-record application of one level (spec point 2, issue 16): the details the service
 * needs, checked against its character rules with '(for DBS)' values and the country
 * alternative, the identity verification route (DBS details' idv_option and its date), and the
 * declaration and consent (consent kind `dbs-application`). Saved on Continue and on Back.
 * The details and the route are the case's (one record each, whatever the levels): on a case
 * with several levels only the first asks them (`dbsApplicationSection`); the others show the
 * answers with a link back to change them, and ask only their own consent.
 */
export function DbsApplicationSection({
  level,
  caseId,
  portal,
  readOnly,
  refresh,
  complete,
}: PortalSectionProps & { level: DbsLevel }) {
  const today = isoToday();
  const client = useQueryClient();
  const frame = usePortalFrame();
  const asker = dbsApplicationSection(portal.portal.sections);
  const asks = asker === null || asker === level;
  const birth = useQuery(birthDetails(caseId));
  const dbs = useQuery(dbsDetails(caseId));
  const consents = useQuery(consentsOptions());
  const activity = portal.portal.case_activities.find((a) => a.activity_type.code === level);
  const consent = activeConsent(consents.data, activity?.id ?? null, 'dbs-application');
  const names = useMemo(() => {
    const b = portal.basic_details;
    const out: Partial<Record<string, string>> = {};
    for (const f of NAME_FIELDS) {
      out[f] = b?.[f] ?? '';
      out[`${f}_dbs`] = b?.[`${f}_dbs`] ?? '';
    }
    return out;
  }, [portal.basic_details]);
  const needing = namesNeedingAlternative(names);

  const form = useForm<ApplicationForm>({
    resolver: asks
      ? schemaResolver<ApplicationForm>(
          () => applicationSchema(today),
          (v) => applicationCrossChecks(v, today),
        )
      : schemaResolver<ApplicationForm>(() => consentOnlySchema),
    defaultValues: toForm(names, null, null) as DefaultValues<ApplicationForm>,
    // Checked on Continue (GOV.UK): no message moves the button while it is pressed.
    mode: 'onSubmit',
  });
  const loaded = birth.data !== undefined && dbs.data !== undefined && consents.isFetched;
  const resetOnce = useRef(false);
  useEffect(() => {
    if (!loaded || resetOnce.current) return;
    resetOnce.current = true;
    form.reset({ ...toForm(names, birth.data, dbs.data), declaration: consent !== null });
  }, [loaded, form, names, birth.data, dbs.data, consent]);
  const dropDraft = useSectionDraft(form, caseId, `${level}`, loaded);

  const country = useWatch({ control: form.control, name: 'country' });
  const idv = useWatch({ control: form.control, name: 'idv_option' });
  const locked = new Set(birth.data?.locked_fields ?? []);
  const verified = dbs.data?.state !== undefined && dbs.data.state !== 'pending';

  /** Saves what is valid; with `strict`, everything must be (Continue). */
  const save = async (strict: boolean): Promise<boolean> => {
    const valid = await form.trigger();
    if (!valid && strict) return false;
    if (!valid) return true; // Back: nothing valid to save, the person will come back to it
    const v = form.getValues();
    try {
      if (!asks) {
        if (strict && !consent && activity) {
          await giveConsent(caseId, activity.id, 'dbs-application');
          await client.invalidateQueries({ queryKey: sectionKeys.consents });
        }
        dropDraft();
        return true;
      }
      await saveRecord(
        'case-birth-details',
        caseId,
        {
          country: v.country,
          country_dbs: v.country_dbs,
          town: v.town,
          town_dbs: v.town_dbs,
          county: showsCounty(v.country) ? v.county : '',
          county_dbs: showsCounty(v.country) ? v.county_dbs : '',
        },
        true,
      );
      const altChanged = NAME_FIELDS.some((f) => v[`${f}_dbs`] !== (names[`${f}_dbs`] ?? ''));
      if (needing.length > 0 && altChanged) {
        await saveRecord(
          'case-basic-details',
          caseId,
          Object.fromEntries(needing.map((f) => [`${f}_dbs`, v[`${f}_dbs`]])),
          true,
        );
        await refresh();
      }
      if (!verified) {
        await saveRecord(
          'case-dbs-details',
          caseId,
          {
            idv_option: v.idv_option,
            video_call_date: v.idv_option === 'video-call' ? v.video_call_date : null,
            in_person_expected_date:
              v.idv_option === 'in-person' ? v.in_person_expected_date : null,
          },
          true,
        );
      }
      if (strict && !consent && activity) {
        await giveConsent(caseId, activity.id, 'dbs-application');
        await client.invalidateQueries({ queryKey: sectionKeys.consents });
      }
      dropDraft();
      return true;
    } catch (error) {
      if (applyServerErrors(form, error)) return false;
      throw error;
    }
  };

  const disabled = readOnly;
  const { name: levelName, shows } = LEVELS[level];
  const askerLabel = asker ? PORTAL_SECTION_LABELS[asker] : '';
  const intro = asks
    ? `${shows} We need a few details, how your identity will be checked, and your consent.`
    : `${shows} Your details and how your identity will be checked are as you gave them in the ${askerLabel}: we only need your consent.`;
  return (
    <SectionShell
      intro={intro}
      loading={!loaded && !birth.isError && !dbs.isError}
      errors={summaryOf(form.formState.errors, APPLICATION_LABELS)}
      onContinue={async () => {
        if (await save(true)) await complete();
      }}
      onBack={() => save(false)}
    >
      {(birth.isError || dbs.isError) && (
        <Alert color="red" variant="light">
          Your details could not be loaded. Please try again.
        </Alert>
      )}
      <TouchTargets>
        <Stack gap="xl">
          {asks ? (
            <>
              <Fieldset legend={<Legend>Your name for the DBS</Legend>} variant="unstyled">
                <Stack gap="md">
                  <Text size="sm" c="dimmed">
                    Your name as you gave it in Basic details. The DBS accepts only plain letters,
                    spaces, hyphens and apostrophes.
                  </Text>
                  {NAME_FIELDS.filter((f) => f !== 'middlename' || names.middlename).map((f) => (
                    <NameForDbs
                      key={f}
                      form={form}
                      name={f}
                      label={
                        f === 'forename'
                          ? 'First name'
                          : f === 'middlename'
                            ? 'Middle name'
                            : 'Last name'
                      }
                      value={names[f] ?? ''}
                      needsAlternative={needing.includes(f)}
                      readOnly={disabled}
                    />
                  ))}
                </Stack>
              </Fieldset>

              <Fieldset legend={<Legend>Where you were born</Legend>} variant="unstyled">
                <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
                  <CountryField
                    form={form}
                    name="country"
                    label="Country of birth"
                    dbs
                    disabled={disabled || locked.has('country')}
                  />
                  <DbsTextField
                    form={form}
                    name="town"
                    label="Town of birth"
                    kind="place"
                    required
                    readOnly={disabled || locked.has('town')}
                  />
                  {showsCounty(country) && (
                    <DbsTextField
                      form={form}
                      name="county"
                      label="County of birth"
                      kind="place"
                      readOnly={disabled || locked.has('county')}
                    />
                  )}
                </SimpleGrid>
              </Fieldset>

              <Stack gap="md">
                <ChoiceCards
                  form={form}
                  name="idv_option"
                  label={APPLICATION_LABELS.idv_option ?? ''}
                  description="Someone must see proof of your identity before the DBS can start."
                  disabled={disabled || verified}
                  options={IDV_OPTIONS.map((o) => ({
                    value: o,
                    label: IDV_OPTION_LABELS[o],
                    hint: IDV_HINTS[o],
                  }))}
                />
                {verified && (
                  <Text size="sm" c="dimmed">
                    Your identity has been checked: this can no longer be changed.
                  </Text>
                )}
                {idv === 'video-call' && (
                  <FieldAnchor name="video_call_date">
                    <DateField
                      control={form.control}
                      name="video_call_date"
                      label={APPLICATION_LABELS.video_call_date ?? ''}
                      min={today}
                      max={plusYears(today, 1)}
                      disabled={disabled || verified}
                    />
                  </FieldAnchor>
                )}
                {idv === 'in-person' && (
                  <FieldAnchor name="in_person_expected_date">
                    <DateField
                      control={form.control}
                      name="in_person_expected_date"
                      label={APPLICATION_LABELS.in_person_expected_date ?? ''}
                      min={today}
                      max={plusYears(today, 1)}
                      disabled={disabled || verified}
                    />
                  </FieldAnchor>
                )}
              </Stack>
            </>
          ) : (
            <Fieldset legend={<Legend>Your answers</Legend>} variant="unstyled">
              <Stack gap="sm">
                <DbsApplicationAnswers caseId={caseId} basic={portal.basic_details} />
                {!disabled && asker && (
                  <Anchor
                    component={Link}
                    to={frame.linkTo(asker)}
                    style={{ minHeight: 44, display: 'inline-flex', alignItems: 'center' }}
                  >
                    Change your answers in {askerLabel}
                  </Anchor>
                )}
              </Stack>
            </Fieldset>
          )}

          <Fieldset legend={<Legend>Declaration and consent</Legend>} variant="unstyled">
            <Stack gap="sm">
              <Text size="sm">
                {portal.portal.customer.name} will send your application for{' '}
                {levelName === 'enhanced' ? 'an' : 'a'} {levelName} criminal record check to the
                Disclosure and Barring Service (DBS). The DBS will use your details to search police
                and other records and send the certificate to you; {portal.portal.customer.name}{' '}
                will see the result of the check.
              </Text>
              <ConfirmBox
                form={form}
                name="declaration"
                disabled={disabled || consent !== null}
                label={`I declare that the information I have given is true and complete, and I consent to this ${levelName} DBS check.`}
              />
              {!activity && (
                <Text size="sm" c="dimmed">
                  This check is not on your case yet: your consent will be asked again when it is.
                </Text>
              )}
            </Stack>
          </Fieldset>
        </Stack>
      </TouchTargets>
    </SectionShell>
  );
}
