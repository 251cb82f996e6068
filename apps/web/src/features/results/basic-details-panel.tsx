import {
  type CaseDbsUpdateDetailsOut,
  countryName,
  formatDate,
  formatPhone,
  nationalityName,
} from '@kestrel/domain';
import { useQuery } from '@tanstack/react-query';
import { caseBasicDetails, caseBirthDetails } from '../../api/case-basic-details';
import { defineCaseRecord } from '../../api/case-data';
import { caseDrivingLicences, casePassports } from '../../api/case-documents';
import { caseOtherNames } from '../../api/case-other-names';
import { familyOf } from './data-panel-kit';
import {
  type Audience,
  caseIdOf,
  Facts,
  Note,
  type PanelActivity,
  PanelFrame,
  PanelSection,
  SmallTable,
} from './panel-kit';

/** The certificate the update service checks (staff and operations only). */
const caseDbsUpdateDetails = defineCaseRecord<CaseDbsUpdateDetailsOut>(
  'case-dbs-update-details',
  'DBS update details',
);

export const BASIC_DETAILS_TEXTS = {
  notGiven: 'Not given.',
  failed: 'The basic details could not be loaded.',
  noOtherNames: 'No other names.',
} as const;

const country = (code: string | null | undefined) => (code ? countryName(code) : '');
const name = (...parts: (string | null | undefined)[]) => parts.filter(Boolean).join(' ');
const GENDERS: Record<string, string> = { male: 'Male', female: 'Female' };

/**
 * Basic details (spec point 2), read-only: the names and their 'for DBS' variants, nationality,
 * gender, date of birth, phone and NI number; birth details; other names; passport and driving
 * licence; and, except in the subject's view, the DBS update details.
 */
export function BasicDetailsPanel({
  activity,
  audience,
}: {
  activity: PanelActivity;
  audience: Audience;
}) {
  const caseId = caseIdOf(activity) ?? 0;
  const api = familyOf(audience);
  const withUpdate = audience !== 'subject';
  const basic = useQuery(caseBasicDetails.options(caseId, api));
  const birth = useQuery(caseBirthDetails.options(caseId, api));
  const others = useQuery(caseOtherNames.options(caseId, api));
  const passport = useQuery(casePassports.options(caseId, api));
  const licence = useQuery(caseDrivingLicences.options(caseId, api));
  const update = useQuery({ ...caseDbsUpdateDetails.options(caseId, api), enabled: withUpdate });
  const all = [basic, birth, others, passport, licence, ...(withUpdate ? [update] : [])];
  if (all.some((q) => q.isPending)) return null;
  if (basic.isError)
    return (
      <PanelFrame testId="basic-details-panel">
        <Note>{BASIC_DETAILS_TEXTS.failed}</Note>
      </PanelFrame>
    );
  const b = basic.data;
  const bd = birth.data;
  const p = passport.data;
  const l = licence.data;
  const u = update.data;
  const names = others.data?.results ?? [];
  return (
    <PanelFrame testId="basic-details-panel">
      <PanelSection title="Personal details" testId="basic-details-personal">
        {b ? (
          <Facts
            items={[
              ['Title', b.title],
              ['Forename', b.forename],
              ['Middle name', b.middlename],
              ['Surname', b.surname],
              ['Forename for DBS', b.forename_dbs],
              ['Middle name for DBS', b.middlename_dbs],
              ['Surname for DBS', b.surname_dbs],
              ['Nationality', b.nationality ? nationalityName(b.nationality) : ''],
              ['Gender', GENDERS[b.gender] ?? b.gender],
              ['Date of birth', formatDate(b.dob)],
              ['Phone number', formatPhone(b.phone_number)],
              ['NI number', b.nin],
            ]}
          />
        ) : (
          <Note>{BASIC_DETAILS_TEXTS.notGiven}</Note>
        )}
      </PanelSection>
      <PanelSection title="Birth details" testId="basic-details-birth">
        {bd ? (
          <Facts
            items={[
              ['Town of birth', bd.town],
              ['County of birth', bd.county],
              ['Country of birth', country(bd.country)],
              ['Town of birth for DBS', bd.town_dbs],
              ['County of birth for DBS', bd.county_dbs],
              ['Country of birth for DBS', country(bd.country_dbs)],
            ]}
          />
        ) : (
          <Note>{BASIC_DETAILS_TEXTS.notGiven}</Note>
        )}
      </PanelSection>
      <PanelSection title="Other names" testId="basic-details-other-names">
        {names.length === 0 ? (
          <Note>{BASIC_DETAILS_TEXTS.noOtherNames}</Note>
        ) : (
          <SmallTable
            caption="Other names"
            head={['Name', 'From', 'To']}
            rows={names.map((n) => [
              name(n.forename, n.middlename, n.surname),
              formatDate(n.from_date),
              formatDate(n.to_date),
            ])}
          />
        )}
      </PanelSection>
      <PanelSection title="Passport" testId="basic-details-passport">
        {p ? (
          <Facts
            items={[
              ['Number', p.number],
              ['Country', country(p.country)],
              ['Issue date', formatDate(p.issue_date)],
              ['Expiry date', formatDate(p.expiry_date)],
            ]}
          />
        ) : (
          <Note>{BASIC_DETAILS_TEXTS.notGiven}</Note>
        )}
      </PanelSection>
      <PanelSection title="Driving licence" testId="basic-details-licence">
        {l ? (
          <Facts
            items={[
              ['Number', l.number],
              ['Country', country(l.country)],
              ['Issue date', formatDate(l.issue_date)],
              ['Expiry date', formatDate(l.expiry_date)],
            ]}
          />
        ) : (
          <Note>{BASIC_DETAILS_TEXTS.notGiven}</Note>
        )}
      </PanelSection>
      {withUpdate && (
        <PanelSection title="DBS update details" testId="basic-details-dbs-update">
          {u ? (
            <Facts
              items={[
                ['Certificate number', u.certificate_number],
                ['Surname', u.surname],
                ['Date of birth', formatDate(u.dob)],
              ]}
            />
          ) : (
            <Note>{BASIC_DETAILS_TEXTS.notGiven}</Note>
          )}
        </PanelSection>
      )}
    </PanelFrame>
  );
}
