import { caseBasicDetailsIn, isoDate } from '@kestrel/domain';
import { Badge, SimpleGrid, Stack, Text } from '@mantine/core';
import { type CaseBasicDetails, caseBasicDetails } from '../../api/case-basic-details';
import {
  BasicDetailsFields,
  type BasicDetailsFieldValues,
  LockedNotice,
  text,
} from '../../components/form-kit';
import { NewBadge, SectionCard } from './section-card';
import { Consents, SaveRow } from './section-parts';
import type { SectionProps } from './section-props';
import { useRecordSection } from './use-record-section';

export interface BasicDetailsForm extends BasicDetailsFieldValues {
  online_idv: boolean;
}

const toForm = (r: CaseBasicDetails | null): BasicDetailsForm => ({
  gender: text(r?.gender),
  title: text(r?.title),
  forename: text(r?.forename),
  forename_dbs: text(r?.forename_dbs),
  middlename: text(r?.middlename),
  middlename_dbs: text(r?.middlename_dbs),
  surname: text(r?.surname),
  surname_dbs: text(r?.surname_dbs),
  email: text(r?.email),
  email_dbs: text(r?.email_dbs),
  dob: text(r?.dob),
  phone_number: text(r?.phone_number),
  nin: text(r?.nin),
  nationality: text(r?.nationality),
  online_idv: r?.online_idv ?? false,
});

const FIELD_LABELS: Record<string, string> = {
  gender: 'gender',
  title: 'title',
  forename: 'forename',
  middlename: 'middle name',
  surname: 'surname',
  dob: 'date of birth',
  phone_number: 'phone number',
  nin: 'national insurance number',
  nationality: 'nationality',
};

const schema = () => caseBasicDetailsIn(isoDate(new Date()));

export function BasicDetailsSection({ caseId, audience, readOnly }: SectionProps) {
  const s = useRecordSection({
    resource: caseBasicDetails,
    caseId,
    audience,
    schema,
    toForm,
    omit: ['email'],
  });
  const { form } = s;
  const locked = new Set(s.record?.locked_fields ?? []);
  const ro = (field: string) => readOnly || locked.has(field);
  return (
    <SectionCard
      title="Basic Details"
      loading={s.query.isPending}
      failed={s.loadFailed && s.record === undefined ? 'load' : s.saveFailed}
      onRetry={s.retry}
      badge={s.isNew ? <NewBadge /> : null}
    >
      <form onSubmit={s.submit} noValidate aria-label="Basic Details">
        <Stack gap="md">
          {locked.size > 0 && (
            <LockedNotice>
              Verified by the online identity check (IDSP), so it cannot be changed:{' '}
              {[...locked].map((f) => FIELD_LABELS[f] ?? f).join(', ')}.
            </LockedNotice>
          )}
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <BasicDetailsFields form={form} ro={ro} resetKey={s.resetKey} />
          </SimpleGrid>
          <Text size="sm" c="dimmed" component="div">
            Online identity check:{' '}
            <Badge variant="light" color={s.record?.online_idv ? 'teal' : 'gray'}>
              {s.record?.online_idv ? 'Yes' : 'No'}
            </Badge>
          </Text>
          {!readOnly && s.changed && <Consents consents={s.consents} />}
          {!readOnly && <SaveRow disabled={!s.canSave} saving={s.saving} />}
        </Stack>
      </form>
    </SectionCard>
  );
}
