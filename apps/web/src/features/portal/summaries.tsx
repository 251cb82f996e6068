import {
  activityAskingConsent,
  type CasePortalOut,
  type ConsentKind,
  countryName,
  formatDate,
  formatPhone,
  IDV_OPTION_LABELS,
  type IdvOption,
  LICENCE_TYPE_LABELS,
  nameForDbs,
  nationalityName,
  RTW_ROUTE_LABELS,
  type RtwRoute,
} from '@kestrel/domain';
import { Box, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { caseAddresses } from '../../api/case-addresses';
import { caseBasicDetails } from '../../api/case-basic-details';
import { COLLECTORS, type CollectorKey, useCaseDocuments } from '../documents';
import {
  activeConsent,
  birthDetails,
  consentsOptions,
  dbsDetails,
  dbsUpdateDetails,
  drivingLicence,
  rtwDetails,
} from './sections/dbs-application/api';

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
      <Row label="Phone number">{formatPhone(data.phone_number)}</Row>
      <Row label="National insurance number">{data.nin}</Row>
      <Row label="Nationality">{data.nationality ? nationalityName(data.nationality) : ''}</Row>
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
  const dbsName = basic ? nameForDbs(basic) : null;
  const date =
    d?.idv_option === 'video-call'
      ? d.video_call_date
      : d?.idv_option === 'in-person'
        ? d.in_person_expected_date
        : null;
  return (
    <Answers testId="dbs-shared-answers">
      {dbsName && <Row label="Your name for the DBS">{dbsName}</Row>}
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

/** The online identity check as it stands. */
export function OnlineIdvReview({ portal }: { portal: CasePortalOut }) {
  const idv = portal.online_idv;
  return (
    <Answers>
      <Row label="Online identity check">
        {idv.verified
          ? 'Verified online'
          : 'Not verified online: your identity will be checked with your documents'}
      </Row>
    </Answers>
  );
}

const pages = (n: number) => (n === 1 ? '1 page' : `${n} pages`);

/** The documents uploaded (not the rejected ones), by list, with the passport's number. */
export function DocumentsReview({ caseId, portal }: { caseId: number; portal: CasePortalOut }) {
  const docs = useCaseDocuments('subject', caseId);
  const passport = portal.documentation.passport;
  const kept = (docs.data ?? []).filter((d) => !d.rejected);
  const lists = (Object.keys(COLLECTORS) as CollectorKey[])
    .map((key) => ({
      collector: COLLECTORS[key],
      documents: kept.filter((d) => (d.collector || 'identity') === key),
    }))
    .filter((l) => l.documents.length > 0);
  return (
    <Stack gap="sm">
      {passport?.number && (
        <Answers>
          <Row label="Passport number">{passport.number}</Row>
        </Answers>
      )}
      {docs.isSuccess && lists.length === 0 && (
        <Text size="sm" c="dimmed">
          No documents uploaded.
        </Text>
      )}
      {lists.map(({ collector, documents }) => (
        <Stack gap={4} key={collector.key}>
          <Text size="sm" fw={600}>
            {collector.title}
          </Text>
          <Stack gap={4} component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
            {documents.map((d) => (
              <Text component="li" size="sm" key={d.id}>
                <Text span size="sm">
                  {d.document_type}
                </Text>
                <Text span size="sm" c="dimmed">
                  {' · '}
                  {pages(d.pages.length)}
                </Text>
              </Text>
            ))}
          </Stack>
        </Stack>
      ))}
    </Stack>
  );
}

/**
 * Whether the person gave the consent an activity of the case asks for (the registry's
 * `consent`; activityAskingConsent finds the activity when `code` is not given).
 */
function ConsentRow({
  portal,
  code,
  kind,
  label,
}: {
  portal: CasePortalOut;
  /** The activity's code when several of the case's activities ask this consent (the levels). */
  code?: string;
  kind: ConsentKind;
  label: string;
}) {
  const consents = useQuery(consentsOptions());
  const activities = portal.portal.case_activities;
  const activity =
    code === undefined
      ? activityAskingConsent(activities, kind)
      : activities.find((a) => a.activity_type.code === code);
  if (!consents.isSuccess) return null;
  const given = activeConsent(consents.data, activity?.id ?? null, kind) !== null;
  return <Row label={label}>{given ? 'Consent given' : 'Not given yet'}</Row>;
}

/**
 * A criminal-record level: the case's shared answers with the level that asks them (the first),
 * and each level's declaration and consent.
 */
export function DbsLevelReview({
  caseId,
  portal,
  level,
  asks,
}: {
  caseId: number;
  portal: CasePortalOut;
  level: string;
  /** Whether this level asked the shared questions. */
  asks: boolean;
}) {
  return (
    <Stack gap={6}>
      {asks && <DbsApplicationAnswers caseId={caseId} basic={portal.basic_details} />}
      <Answers>
        <ConsentRow
          portal={portal}
          code={level}
          kind="dbs-application"
          label="Declaration and consent"
        />
      </Answers>
    </Stack>
  );
}

/** The DBS certificate for the update service, and the consent to status checks. */
export function DbsUpdateReview({ caseId, portal }: { caseId: number; portal: CasePortalOut }) {
  const { data } = useQuery(dbsUpdateDetails(caseId));
  return (
    <Answers>
      <Row label="Certificate number">{data?.certificate_number}</Row>
      <Row label="Last name on the certificate">{data?.surname}</Row>
      <Row label="Date of birth on the certificate">{formatDate(data?.dob)}</Row>
      <ConsentRow portal={portal} kind="dbs-update" label="Status checks" />
    </Answers>
  );
}

/** The driving licence given for the driver data checks, and the DVLA mandate. */
export function DriverDataReview({ caseId, portal }: { caseId: number; portal: CasePortalOut }) {
  const { data } = useQuery(drivingLicence(caseId));
  return (
    <Answers>
      <Row label="Licence type">{data ? LICENCE_TYPE_LABELS[data.licence_type] : ''}</Row>
      <Row label="Driving licence number">{data?.number}</Row>
      {data?.expiry_date && <Row label="Expiry date">{formatDate(data.expiry_date)}</Row>}
      <ConsentRow portal={portal} kind="driver-data" label="DVLA checks" />
    </Answers>
  );
}

/** How the person will prove their right to work. */
export function RtwReview({ caseId }: { caseId: number }) {
  const { data } = useQuery(rtwDetails(caseId));
  const route = data?.route ?? '';
  return (
    <Answers>
      <Row label="How you will prove your right to work">
        {route ? RTW_ROUTE_LABELS[route as RtwRoute] : ''}
      </Row>
      {route === 'share-code' && <Row label="Share code">{data?.share_code}</Row>}
    </Answers>
  );
}
