export * from './audit-actions.js';
export * from './case-activities.js';
export * from './cases.js';
export * from './common.js';
export * from './processes.js';
export * from './session.js';
export * from './subjects.js';
export * from './users.js';
