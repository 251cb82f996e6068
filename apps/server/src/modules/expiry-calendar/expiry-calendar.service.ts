import {
  daysUntil,
  EXPIRY_KIND_LABELS,
  type ExpiryItemOut,
  type ExpiryKind,
  maskedNumber,
  sortExpiryItems,
} from '@kestrel/domain';
import { and, eq, getTableName, gte, isNotNull, isNull, lte, sql } from 'drizzle-orm';
import type { Tx } from '../../db/connection.js';
import { caseActivities } from '../activities/activities.table.js';
import { activityTypes } from '../bootstrap/bootstrap.table.js';
import { caseDrivingLicences, casePassports } from '../case-data/case-data.table.js';
import { cases } from '../cases/cases.table.js';
import { decryptValue } from '../encryption/field-cipher.js';
import { licences } from '../lms/lms.table.js';
import { subjectConsents } from '../portal/consents.table.js';
import { subjects } from '../subjects/subjects.table.js';

/** One thing that expires, with what its reminders need (the subject's login, the customer). */
export interface ExpiryItem extends ExpiryItemOut {
  customerId: number;
  /** The item's key within its kind (its reminders are recorded under it). */
  key: string;
  subjectFirstName: string;
  /** The consent to renew (dvla-consent). */
  consentId: number | null;
}

const day = (d: Date) => d.toISOString().slice(0, 10);

const subjectCols = {
  customerId: subjects.customerId,
  subjectId: subjects.id,
  first: subjects.firstName,
  last: subjects.lastName,
  email: subjects.email,
};

type SubjectPart = {
  customerId: number;
  subjectId: number;
  first: string;
  last: string;
  email: string;
};

function item(
  kind: ExpiryKind,
  s: SubjectPart,
  fields: { key: string; caseId: number | null; reference: string; expiresOn: string },
  today: string,
  consentId: number | null = null,
): ExpiryItem {
  return {
    customerId: s.customerId,
    key: fields.key,
    kind,
    kind_label: EXPIRY_KIND_LABELS[kind],
    subject_id: s.subjectId,
    subject_name: `${s.first} ${s.last}`.trim(),
    subject_email: s.email,
    subjectFirstName: s.first,
    case_id: fields.caseId,
    reference: fields.reference,
    expires_on: fields.expiresOn,
    days_left: daysUntil(today, fields.expiresOn),
    consentId,
  };
}

/**
 * What expires from `today` to `until` (YYYY-MM-DD, inclusive) among the subjects the context
 * sees (RLS: the tenant's own): DVLA mandates in force (not withdrawn or renewed), the cases'
 * passports and driving licences, time-limited rights to work, and active issued licences; of
 * cases and subjects not archived. Sorted by date, then subject.
 */
export async function expiringItems(
  tx: Tx,
  today: string,
  until: string,
  filter: { kind?: ExpiryKind | undefined; search?: string | undefined } = {},
): Promise<ExpiryItem[]> {
  const want = (k: ExpiryKind) => filter.kind === undefined || filter.kind === k;
  const term = filter.search?.trim().toLowerCase();
  const match = term
    ? sql`(lower(${subjects.firstName} || ' ' || ${subjects.lastName}) like ${`%${term}%`} or ${subjects.searchEmail} like ${`%${term}%`})`
    : sql`true`;
  const caseJoin = and(eq(cases.customerId, subjects.customerId), eq(cases.subjectId, subjects.id));
  const live = and(isNull(cases.archivedAt), isNull(subjects.archivedAt), match);
  const out: ExpiryItem[] = [];

  if (want('dvla-consent')) {
    const rows = await tx
      .select({
        ...subjectCols,
        id: subjectConsents.id,
        caseId: cases.id,
        at: subjectConsents.expiresAt,
      })
      .from(subjectConsents)
      .innerJoin(
        cases,
        and(eq(cases.customerId, subjectConsents.customerId), eq(cases.id, subjectConsents.caseId)),
      )
      .innerJoin(subjects, caseJoin)
      .where(
        and(
          eq(subjectConsents.kind, 'driver-data'),
          isNull(subjectConsents.withdrawnAt),
          isNull(subjectConsents.renewedAt),
          isNotNull(subjectConsents.expiresAt),
          sql`${subjectConsents.expiresAt}::date between ${today}::date and ${until}::date`,
          live,
        ),
      );
    for (const r of rows) {
      if (!r.at) continue;
      const expiresOn = day(r.at);
      out.push(
        item(
          'dvla-consent',
          r,
          { key: String(r.id), caseId: r.caseId, reference: `Consent ${r.id}`, expiresOn },
          today,
          r.id,
        ),
      );
    }
  }

  for (const [kind, table] of [
    ['passport', casePassports],
    ['driving-licence', caseDrivingLicences],
  ] as const) {
    if (!want(kind)) continue;
    const rows = await tx
      .select({ ...subjectCols, caseId: cases.id, number: table.number, on: table.expiryDate })
      .from(table)
      .innerJoin(cases, and(eq(cases.customerId, table.customerId), eq(cases.id, table.caseId)))
      .innerJoin(subjects, caseJoin)
      .where(
        and(
          isNotNull(table.expiryDate),
          gte(table.expiryDate, today),
          lte(table.expiryDate, until),
          live,
        ),
      );
    for (const r of rows) {
      if (!r.on) continue;
      out.push(
        item(
          kind,
          r,
          {
            key: String(r.caseId),
            caseId: r.caseId,
            reference: maskedNumber(decryptValue(getTableName(table), 'number', r.number ?? '')),
            expiresOn: r.on,
          },
          today,
        ),
      );
    }
  }

  if (want('right-to-work')) {
    const expiry = sql<string>`${caseActivities.resultData}->>'expiry_date'`;
    const rows = await tx
      .select({ ...subjectCols, caseId: cases.id, activityId: caseActivities.id, on: expiry })
      .from(caseActivities)
      .innerJoin(activityTypes, eq(activityTypes.id, caseActivities.activityTypeId))
      .innerJoin(
        cases,
        and(eq(cases.customerId, caseActivities.customerId), eq(cases.id, caseActivities.caseId)),
      )
      .innerJoin(subjects, caseJoin)
      .where(
        and(
          eq(activityTypes.code, 'rtw'),
          eq(caseActivities.state, 'ca-complete'),
          sql`${caseActivities.resultData}->>'outcome' = 'time-limited'`,
          sql`${expiry} ~ '^\\d{4}-\\d{2}-\\d{2}$'`,
          sql`${expiry} between ${today} and ${until}`,
          live,
        ),
      );
    for (const r of rows) {
      out.push(
        item(
          'right-to-work',
          r,
          {
            key: String(r.activityId),
            caseId: r.caseId,
            reference: `Check ${r.activityId}`,
            expiresOn: r.on,
          },
          today,
        ),
      );
    }
  }

  if (want('licence')) {
    const rows = await tx
      .select({ ...subjectCols, id: licences.id, number: licences.number, on: licences.expiryDate })
      .from(licences)
      .innerJoin(
        subjects,
        and(eq(subjects.customerId, licences.customerId), eq(subjects.id, licences.holderId)),
      )
      .where(
        and(
          eq(licences.status, 'active'),
          gte(licences.expiryDate, today),
          lte(licences.expiryDate, until),
          isNull(subjects.archivedAt),
          match,
        ),
      );
    for (const r of rows) {
      out.push(
        item(
          'licence',
          r,
          { key: String(r.id), caseId: null, reference: r.number, expiresOn: r.on },
          today,
        ),
      );
    }
  }
  return sortExpiryItems(out);
}

/** The calendar's rows as the API returns them. */
export function presentItem(i: ExpiryItem): ExpiryItemOut {
  return {
    kind: i.kind,
    kind_label: i.kind_label,
    subject_id: i.subject_id,
    subject_name: i.subject_name,
    subject_email: i.subject_email,
    case_id: i.case_id,
    reference: i.reference,
    expires_on: i.expires_on,
    days_left: i.days_left,
  };
}
