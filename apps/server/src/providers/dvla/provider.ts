/**
 * DVLA Access to Driver Data (PROVIDERS.md): one enquiry of a driving licence number, answered
 * with the driver's record (the DVLA's JSON shape), or an enquiry code when there is none
 * (ENQ018: no record) or it is suppressed (ENQ037). The engine calls it only from jobs.
 */

/** The body of `POST /full-driver-enquiry/v1/driving-licences/retrieve`. */
export interface DriverEnquiry {
  drivingLicenceNumber: string;
  includeCPC: boolean;
  includeTacho: boolean;
  acceptPartialResponse: boolean;
}

export interface DvlaAddress {
  unstructuredAddress?: {
    line1?: string;
    line2?: string;
    line3?: string;
    line4?: string;
    line5?: string;
    postcode?: string;
  };
}

/** The driver record as the DVLA answers it (the parts Kestrel reads). */
export interface DvlaDriverRecord {
  driver: {
    drivingLicenceNumber: string;
    firstNames?: string;
    lastName?: string;
    gender?: string;
    dateOfBirth?: string;
    address?: DvlaAddress;
  };
  licence: { type?: string; status?: string; statusQualifier?: string };
  entitlement?: {
    categoryCode: string;
    categoryType?: string;
    fromDate?: string;
    expiryDate?: string;
    restrictions?: { restrictionCode: string; restrictionLiteral?: string }[];
  }[];
  endorsements?: {
    offenceCode: string;
    offenceDate?: string;
    convictionDate?: string;
    penaltyPoints?: number;
    disqualification?: { type?: string; forYears?: number; forMonths?: number };
  }[];
  token?: { validFromDate?: string; validToDate?: string; issueNumber?: string };
  testPass?: { categoryCode: string; testDate?: string; status?: string }[];
  cpc?: { cpcs?: { lgvValidTo?: string; pcvValidTo?: string }[] };
  holder?: { dqc?: { dqcs?: { dqcNumber?: string; issueDate?: string; validTo?: string }[] } };
  tachoCards?: {
    cardNumber?: string;
    cardStatus?: string;
    cardStartOfValidityDate?: string;
    cardExpiryDate?: string;
  }[];
}

/** What an enquiry found: the record, or the DVLA's enquiry code for its absence. */
export type DriverEnquiryAnswer =
  | { found: true; record: DvlaDriverRecord }
  | { found: false; code: string; detail: string };

export interface DvlaProvider {
  retrieve(enquiry: DriverEnquiry, signal: AbortSignal): Promise<DriverEnquiryAnswer>;
}

export { aborted, ProviderError } from '../errors.js';
