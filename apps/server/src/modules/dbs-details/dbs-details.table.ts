import {
  date,
  foreignKey,
  index,
  integer,
  pgTable,
  primaryKey,
  varchar,
} from 'drizzle-orm/pg-core';
import { createdAt, customerIdColumn, tstz } from '../../db/columns.js';
import { cases } from '../cases/cases.table.js';
import { customers } from '../customers/customers.table.js';

// DBS details and right-to-work details of a case (spec point 3), one row per case, tenant-owned
// (forced RLS by customer_id; a subject sees its own cases' rows by case_id, db/security.ts).
// Verifier and countersignatory names are kept as they were (ops staff belong to no customer).

const str = (name: string, length: number) => varchar(name, { length }).notNull().default('');
const day = (name: string) => date(name, { mode: 'string' });

export const caseDbsDetails = pgTable(
  'case_dbs_details',
  {
    customerId: customerIdColumn().references(() => customers.id, { onDelete: 'cascade' }),
    caseId: integer('case_id').notNull(),
    idvOption: str('idv_option', 20),
    videoCallDate: day('video_call_date'),
    inPersonExpectedDate: day('in_person_expected_date'),
    discrepancyNotes: str('discrepancy_notes', 400),
    /** pending (awaiting verification), verified (awaiting countersigning), countersigned. */
    state: varchar('state', { length: 20 }).notNull().default('pending'),
    verifiedBy: varchar('verified_by', { length: 200 }),
    verifiedAt: tstz('verified_at'),
    /** The identity checking route the documents met at verification (null online). */
    identityRoute: integer('identity_route'),
    countersignedBy: varchar('countersigned_by', { length: 200 }),
    countersignedAt: tstz('countersigned_at'),
    createdAt: createdAt(),
    updatedAt: tstz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.caseId] }),
    foreignKey({
      name: 'case_dbs_details_case_fk',
      columns: [t.customerId, t.caseId],
      foreignColumns: [cases.customerId, cases.id],
    }).onDelete('cascade'),
    // The outstanding activities find the verified details awaiting countersigning (issue 28).
    index('case_dbs_details_state_idx').on(t.state, t.customerId, t.caseId),
  ],
);

/** The route the person takes (share code or documents) and the check's outcome. */
export const caseRtwDetails = pgTable(
  'case_rtw_details',
  {
    customerId: customerIdColumn().references(() => customers.id, { onDelete: 'cascade' }),
    caseId: integer('case_id').notNull(),
    route: str('route', 20),
    // encrypted at rest (modules/encryption/field-cipher.ts, decision 027): `f1:<key id>:…`
    shareCode: str('share_code', 256),
    verificationMethodDisplay: str('verification_method_display', 100),
    checkedBy: varchar('checked_by', { length: 200 }),
    checkedAt: tstz('checked_at'),
    stateDisplay: str('state_display', 100),
    createdAt: createdAt(),
    updatedAt: tstz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.caseId] }),
    foreignKey({
      name: 'case_rtw_details_case_fk',
      columns: [t.customerId, t.caseId],
      foreignColumns: [cases.customerId, cases.id],
    }).onDelete('cascade'),
  ],
);
