import { foreignKey, index, integer, pgTable, primaryKey, varchar } from 'drizzle-orm/pg-core';
import { createdAt, customerIdColumn, idColumn, tstz } from '../../db/columns.js';
import { caseActivities } from '../activities/activities.table.js';
import { cases } from '../cases/cases.table.js';
import { customers } from '../customers/customers.table.js';

/**
 * A consent the subject gave for one check of one case (spec points 2 and 9): the declaration of
 * a criminal-record application, status checks on the update service, or the driving licence
 * (DVLA) mandate, which lasts 3 years. A withdrawal keeps the row (`withdrawn_at`); a renewal
 * (dvla-reconsent) adds a new row and marks the old one `renewed_at`. The kestrel_subject role
 * reads its own cases' rows (policy by `case_id`); the portal service writes them for it.
 */
export const subjectConsents = pgTable(
  'subject_consents',
  {
    customerId: customerIdColumn().references(() => customers.id, { onDelete: 'cascade' }),
    id: idColumn(),
    caseId: integer('case_id').notNull(),
    caseActivityId: integer('case_activity_id').notNull(),
    /** A ConsentKind of @kestrel/domain. */
    kind: varchar('kind', { length: 30 }).notNull(),
    givenAt: tstz('given_at').notNull(),
    expiresAt: tstz('expires_at'),
    withdrawnAt: tstz('withdrawn_at'),
    /** Set when a renewal replaced this consent (the new row carries on). */
    renewedAt: tstz('renewed_at'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.id] }),
    foreignKey({
      columns: [t.customerId, t.caseId],
      foreignColumns: [cases.customerId, cases.id],
    }).onDelete('cascade'),
    foreignKey({
      columns: [t.customerId, t.caseActivityId],
      foreignColumns: [caseActivities.customerId, caseActivities.id],
    }).onDelete('cascade'),
    index('subject_consents_case_idx').on(t.customerId, t.caseId),
    index('subject_consents_activity_idx').on(t.customerId, t.caseActivityId),
  ],
);
