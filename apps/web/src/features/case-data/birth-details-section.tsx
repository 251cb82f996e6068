import { caseBirthDetailsIn, showsCounty } from '@kestrel/domain';
import { SimpleGrid, Stack } from '@mantine/core';
import { useWatch } from 'react-hook-form';
import { type CaseBirthDetails, caseBirthDetails } from '../../api/case-basic-details';
import { CountryField, DbsTextField, LockedNotice, text } from '../../components/form-kit';
import { NewBadge, SectionCard } from './section-card';
import { Consents, SaveRow } from './section-parts';
import type { SectionProps } from './section-props';
import { useRecordSection } from './use-record-section';

export interface BirthDetailsForm {
  country: string;
  country_dbs: string;
  town: string;
  town_dbs: string;
  county: string;
  county_dbs: string;
}

const toForm = (r: CaseBirthDetails | null): BirthDetailsForm => ({
  country: text(r?.country),
  country_dbs: text(r?.country_dbs),
  town: text(r?.town),
  town_dbs: text(r?.town_dbs),
  county: text(r?.county),
  county_dbs: text(r?.county_dbs),
});

const schema = () => caseBirthDetailsIn();

export function BirthDetailsSection({ caseId, audience, readOnly }: SectionProps) {
  const s = useRecordSection({ resource: caseBirthDetails, caseId, audience, schema, toForm });
  const { form } = s;
  const country = useWatch({ control: form.control, name: 'country' });
  const locked = new Set(s.record?.locked_fields ?? []);
  const ro = (field: string) => readOnly || locked.has(field);
  return (
    <SectionCard
      title="Birth Details"
      loading={s.query.isPending}
      failed={s.loadFailed && s.record === undefined ? 'load' : s.saveFailed}
      onRetry={s.retry}
      badge={s.isNew ? <NewBadge /> : null}
    >
      <form onSubmit={s.submit} noValidate aria-label="Birth Details">
        <Stack gap="md">
          {locked.size > 0 && <LockedNotice />}
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <CountryField
              form={form}
              name="country"
              label="Country of birth"
              dbs
              disabled={ro('country')}
            />
            <DbsTextField
              form={form}
              name="town"
              label="Town of birth"
              kind="place"
              required
              readOnly={ro('town')}
            />
            {showsCounty(country) && (
              <DbsTextField
                form={form}
                name="county"
                label="County of birth"
                kind="place"
                readOnly={ro('county')}
              />
            )}
          </SimpleGrid>
          {!readOnly && s.changed && <Consents consents={s.consents} />}
          {!readOnly && <SaveRow disabled={!s.canSave} saving={s.saving} />}
        </Stack>
      </form>
    </SectionCard>
  );
}
