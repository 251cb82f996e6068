import { and, desc, eq, isNull } from 'drizzle-orm';
import type { Tx } from '../../../db/connection.js';
import { caseBasicDetails, caseDrivingLicences } from '../../case-data/case-data.table.js';
import { cases } from '../../cases/cases.table.js';
import { decryptValue } from '../../encryption/field-cipher.js';
import { subjectConsents } from '../../portal/consents.table.js';
import { subjects } from '../../subjects/subjects.table.js';

/*
 * What the driving licence kinds (driver data, licence check) read of a case: the licence the
 * subject gave in the portal's driver-data section, the person's names, date of birth and email,
 * and the DVLA mandate (the driver-data consent) with the day it was signed.
 */

export interface CaseLicence {
  number: string;
  forename: string;
  surname: string;
  dob: string;
  email: string;
  /** 'YYYY-MM-DD' the subject signed the DVLA mandate (an active driver-data consent). */
  mandateDate: string;
}

/** The case's active DVLA mandate's date, or null. */
export async function mandateDateOf(tx: Tx, caseId: number): Promise<string | null> {
  const [consent] = await tx
    .select({ givenAt: subjectConsents.givenAt })
    .from(subjectConsents)
    .where(
      and(
        eq(subjectConsents.caseId, caseId),
        eq(subjectConsents.kind, 'driver-data'),
        isNull(subjectConsents.withdrawnAt),
      ),
    )
    .orderBy(desc(subjectConsents.givenAt))
    .limit(1);
  return consent ? consent.givenAt.toISOString().slice(0, 10) : null;
}

/** The case's licence, person and mandate, or null while any of them is missing. */
export async function caseLicenceOf(tx: Tx, caseId: number): Promise<CaseLicence | null> {
  const [row] = await tx
    .select({
      number: caseDrivingLicences.number,
      forename: caseBasicDetails.forename,
      surname: caseBasicDetails.surname,
      dob: caseBasicDetails.dob,
      firstName: subjects.firstName,
      lastName: subjects.lastName,
      subjectDob: subjects.dob,
      email: subjects.email,
    })
    .from(cases)
    .innerJoin(subjects, eq(subjects.id, cases.subjectId))
    .leftJoin(
      caseDrivingLicences,
      and(
        eq(caseDrivingLicences.customerId, cases.customerId),
        eq(caseDrivingLicences.caseId, cases.id),
      ),
    )
    .leftJoin(
      caseBasicDetails,
      and(eq(caseBasicDetails.customerId, cases.customerId), eq(caseBasicDetails.caseId, cases.id)),
    )
    .where(eq(cases.id, caseId));
  const mandateDate = await mandateDateOf(tx, caseId);
  const number = decryptValue('case_driving_licences', 'number', row?.number ?? '')
    .replace(/\s+/g, '')
    .toUpperCase();
  if (!row || !number || !mandateDate) return null;
  const dob = row.dob ?? row.subjectDob;
  return {
    number,
    forename: row.forename || row.firstName || '',
    surname: row.surname || row.lastName || '',
    dob: dob ? String(dob).slice(0, 10) : '',
    email: row.email,
    mandateDate,
  };
}
