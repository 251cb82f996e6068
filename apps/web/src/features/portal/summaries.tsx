import {
  type CasePortalOut,
  countryName,
  formatDate,
  IDV_OPTION_LABELS,
  type IdvOption,
} from '@kestrel/domain';
import { Box, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { caseAddresses } from '../../api/case-addresses';
import { caseBasicDetails } from '../../api/case-basic-details';
import { birthDetails, dbsDetails } from './sections/dbs-application/api';

/** What the person entered, as text (Review, and the sections once submitted). */
export function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box
      component="div"
      style={{ display: 'grid', gridTemplateColumns: 'minmax(8rem, 1fr) 2fr', gap: 8 }}
    >
      <Text component="dt" size="sm" c="dimmed">
        {label}
      </Text>
      <Text component="dd" m={0} size="sm" style={{ overflowWrap: 'anywhere' }}>
        {children || '—'}
      </Text>
    </Box>
  );
}

/** The basic details as entered (the subject API). */
export function BasicDetailsReview({ caseId }: { caseId: number }) {
  const { data } = useQuery(caseBasicDetails.options(caseId, 'subject'));
  if (!data) return null;
  const name = (plain: string, dbs: string) => (dbs ? `${plain} (for DBS: ${dbs})` : plain);
  return (
    <Box component="dl" m={0} style={{ display: 'grid', gap: 6 }}>
      <Row label="Name">
        {[
          data.title,
          name(data.forename, data.forename_dbs),
          name(data.middlename, data.middlename_dbs),
          name(data.surname, data.surname_dbs),
        ]
          .filter(Boolean)
          .join(' ')}
      </Row>
      <Row label="Gender">
        {data.gender === 'male' ? 'Male' : data.gender === 'female' ? 'Female' : data.gender}
      </Row>
      <Row label="Date of birth">{formatDate(data.dob)}</Row>
      <Row label="Email">{data.email}</Row>
      <Row label="Phone number">{data.phone_number}</Row>
      <Row label="National insurance number">{data.nin}</Row>
      <Row label="Nationality">{data.nationality ? countryName(data.nationality) : ''}</Row>
    </Box>
  );
}

/** The addresses as entered, newest first. */
export function AddressesReview({ caseId }: { caseId: number }) {
  const { data } = useQuery(caseAddresses.options(caseId, 'subject'));
  if (!data) return null;
  const rows = [...data.results].sort((a, b) =>
    (b.from_date ?? '').localeCompare(a.from_date ?? ''),
  );
  return (
    <Stack gap={6} component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
      {rows.map((a) => (
        <Text component="li" size="sm" key={a.id}>
          {[a.line_one, a.line_two, a.town, a.postcode].filter(Boolean).join(', ')}
          <Text span c="dimmed" size="sm">
            {' '}
            ({formatDate(a.from_date)} to {a.current || !a.to_date ? 'now' : formatDate(a.to_date)})
          </Text>
        </Text>
      ))}
      {(data.gaps?.length ?? 0) > 0 && (
        <Text component="li" size="sm" c="var(--mantine-color-error)">
          Some of the last 5 years is missing.
        </Text>
      )}
    </Stack>
  );
}

/** A list of answers (`Row`s). */
export function Answers({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <Box component="dl" m={0} style={{ display: 'grid', gap: 6 }} data-testid={testId}>
      {children}
    </Box>
  );
}

const withDbs = (plain: string, dbs: string) => (dbs ? `${plain} (for DBS: ${dbs})` : plain);

/** The identity-verification route in the person's words. */
const idvText = (option: string) =>
  Object.hasOwn(IDV_OPTION_LABELS, option) ? IDV_OPTION_LABELS[option as IdvOption] : option;

/**
 * The criminal-record questions a case asks once whatever its levels (the name for the DBS,
 * where the person was born, how and when their identity will be checked), as answered.
 */
export function DbsApplicationAnswers({
  caseId,
  basic,
}: {
  caseId: number;
  basic: CasePortalOut['basic_details'];
}) {
  const birth = useQuery(birthDetails(caseId));
  const dbs = useQuery(dbsDetails(caseId));
  const b = birth.data;
  const d = dbs.data;
  const dbsNames = basic
    ? [basic.forename_dbs, basic.middlename_dbs, basic.surname_dbs].filter(Boolean)
    : [];
  const date =
    d?.idv_option === 'video-call'
      ? d.video_call_date
      : d?.idv_option === 'in-person'
        ? d.in_person_expected_date
        : null;
  return (
    <Answers testId="dbs-shared-answers">
      {basic && dbsNames.length > 0 && (
        <Row label="Your name for the DBS">
          {[
            basic.forename_dbs || basic.forename,
            basic.middlename_dbs || basic.middlename,
            basic.surname_dbs || basic.surname,
          ]
            .filter(Boolean)
            .join(' ')}
        </Row>
      )}
      <Row label="Town of birth">{b ? withDbs(b.town, b.town_dbs) : ''}</Row>
      {b?.county && <Row label="County of birth">{withDbs(b.county, b.county_dbs)}</Row>}
      <Row label="Country of birth">
        {b?.country
          ? withDbs(countryName(b.country), b.country_dbs ? countryName(b.country_dbs) : '')
          : ''}
      </Row>
      <Row label="How your identity will be checked">{d ? idvText(d.idv_option) : ''}</Row>
      {date && (
        <Row
          label={
            d?.idv_option === 'video-call'
              ? 'Date of the video call'
              : 'Date you expect to show your documents'
          }
        >
          {formatDate(date)}
        </Row>
      )}
    </Answers>
  );
}
