// Every Drizzle table of the platform, for code that wants them all (seeds, tests).
// drizzle-kit reads the *.table.ts files directly (see drizzle.config.ts).

export * from '../modules/activities/activities.table.js';
export * from '../modules/bootstrap/bootstrap.table.js';
export * from '../modules/case-data/case-data.table.js';
export * from '../modules/case-documents/case-documents.table.js';
export * from '../modules/cases/cases.table.js';
export * from '../modules/customers/customers.table.js';
export * from '../modules/dbs-details/dbs-details.table.js';
export * from '../modules/flags/flags.table.js';
export * from '../modules/imports/imports.table.js';
export * from '../modules/pricebooks/pricebooks.table.js';
export * from '../modules/processes/processes.table.js';
export * from '../modules/segments/segments.table.js';
export * from '../modules/sso/sso.table.js';
export * from '../modules/subjects/subjects.table.js';
export * from '../modules/users/users.table.js';
export * from '../platform/tables/audit.table.js';
export * from '../platform/tables/maintenance.table.js';
export * from '../platform/tables/outbox.table.js';
export * from '../platform/tables/sessions.table.js';
