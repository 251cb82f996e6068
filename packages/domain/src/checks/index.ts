export * from './disclosure.js';
export * from './kinds.js';
export * from './processing.js';
export * from './results.js';
export * from './top-up.js';
