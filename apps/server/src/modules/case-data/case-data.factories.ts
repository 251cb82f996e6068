import { licenceNumberReference, minusMonths, plusYears } from '@kestrel/domain';
import type { Tx } from '../../db/connection.js';
import {
  caseAddresses,
  caseBasicDetails,
  caseBirthDetails,
  caseDrivingLicences,
  caseOtherNames,
  casePassports,
} from './case-data.table.js';

// Case-data factories (owner or ops transaction): the demo seed and the tests build rows with
// them. Values are valid under the rules, so a screen can save them unchanged.

export interface CaseKey {
  customerId: number;
  caseId: number;
}

export interface Person {
  forename: string;
  middlename?: string;
  surname: string;
  dob: string;
  gender?: 'male' | 'female';
}

export async function createCaseBasicDetails(
  tx: Tx,
  key: CaseKey,
  person: Person,
  more: Partial<typeof caseBasicDetails.$inferInsert> = {},
) {
  const gender = person.gender ?? 'female';
  const [row] = await tx
    .insert(caseBasicDetails)
    .values({
      ...key,
      gender,
      title: gender === 'male' ? 'Mr' : 'Ms',
      forename: person.forename,
      middlename: person.middlename ?? '',
      surname: person.surname,
      dob: person.dob,
      phoneNumber: '07911 123456',
      nin: 'AB123456C',
      nationality: 'GBR',
      ...more,
    })
    .returning();
  return row;
}

export async function createCaseBirthDetails(tx: Tx, key: CaseKey) {
  await tx
    .insert(caseBirthDetails)
    .values({ ...key, country: 'GBR', town: 'Leeds', county: 'West Yorkshire' });
}

export async function createCaseOtherName(
  tx: Tx,
  key: CaseKey,
  values: Omit<typeof caseOtherNames.$inferInsert, 'customerId' | 'caseId'>,
) {
  const [row] = await tx
    .insert(caseOtherNames)
    .values({ ...key, ...values })
    .returning();
  return row;
}

export async function createCaseAddress(
  tx: Tx,
  key: CaseKey,
  values: Partial<typeof caseAddresses.$inferInsert>,
) {
  const [row] = await tx
    .insert(caseAddresses)
    .values({
      country: 'GBR',
      lineOne: '1 High Street',
      town: 'Leeds',
      postcode: 'LS1 4AP',
      fromDate: '2020-01-01',
      ...values,
      ...key,
    })
    .returning();
  if (!row) throw new Error('address insert returned nothing');
  return row;
}

/**
 * A five-year address history with one gap (about six months, two and a half to two years ago):
 * the current address provided by the online identity check (idsp, locked), one found by the
 * lookup, and the oldest typed in with a comma, which needs its '(for DBS)' line.
 */
export async function createAddressHistory(tx: Tx, key: CaseKey, today: Date) {
  const current = await createCaseAddress(tx, key, {
    lineOne: 'Flat 2, The Old Mill',
    lineOneDbs: 'Flat 2 The Old Mill',
    lineTwo: '14 Mill Lane',
    town: 'York',
    postcode: 'YO1 7HH',
    fromDate: minusMonths(today, 24),
    current: true,
    source: 'idsp',
    metadata: { provider: 'idsp', verified: true },
  });
  const previous = await createCaseAddress(tx, key, {
    lineOne: '27 Church Road',
    town: 'Bristol',
    postcode: 'BS1 5TR',
    fromDate: minusMonths(today, 44),
    toDate: minusMonths(today, 30),
    source: 'OS',
    metadata: { UPRN: '100121212121' },
  });
  const oldest = await createCaseAddress(tx, key, {
    lineOne: '3, Station Road',
    lineOneDbs: '3 Station Road',
    town: 'Leeds',
    postcode: 'LS1 4AP',
    fromDate: minusMonths(today, 66),
    toDate: minusMonths(today, 44),
    source: 'manual',
  });
  return { current, previous, oldest };
}

export async function createCasePassport(
  tx: Tx,
  key: CaseKey,
  today: Date,
  more: Partial<typeof casePassports.$inferInsert> = {},
) {
  const [row] = await tx
    .insert(casePassports)
    .values({
      ...key,
      number: '925665416',
      country: 'GBR',
      issueDate: minusMonths(today, 30),
      expiryDate: plusYears(minusMonths(today, 30), 10),
      ...more,
    })
    .returning();
  return row;
}

/**
 * A photocard licence whose number fits the holder (spec point 5's check), derived from their
 * surname, date of birth and gender (a woman's month + 50); a person without a gender is a woman,
 * as createCaseBasicDetails records them.
 */
export async function createCaseDrivingLicence(
  tx: Tx,
  key: CaseKey,
  person: Person,
  today: Date,
  more: Partial<typeof caseDrivingLicences.$inferInsert> = {},
) {
  const [row] = await tx
    .insert(caseDrivingLicences)
    .values({
      ...key,
      licenceType: 'photo',
      number: licenceNumberReference({ ...person, gender: person.gender ?? 'female' }),
      country: 'GBR',
      dob: person.dob,
      issueDate: minusMonths(today, 40),
      expiryDate: plusYears(minusMonths(today, 40), 10),
      ...more,
    })
    .returning();
  return row;
}
