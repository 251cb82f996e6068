// Runs decoder-child.ts from the sources (tests, development), where there is no compiled .js:
// Node loads the decoders' packages first, so that tsx (registered after) compiles only this
// folder's files and not pdf.js too (which costs 1.7 s and 180 MB on every start otherwise).
await Promise.all([
  import('pdfjs-dist/legacy/build/pdf.mjs'),
  import('pdfjs-dist/legacy/build/pdf.worker.mjs'),
  import('@napi-rs/canvas'),
  import('sharp'),
  import('heic-convert'),
]);
const { register } = await import('tsx/esm/api');
register();
await import('./decoder-child.ts');
