export * from './disclosure.js';
export * from './driver-data.js';
export * from './driving-records.js';
export * from './kinds.js';
export * from './licence-check.js';
export * from './processing.js';
export * from './results.js';
export * from './top-up.js';
