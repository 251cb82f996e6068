import type { KestrelModule } from '../../platform/module.js';
import { seedImportDemo } from './demo.seed.js';
import { importsRoutes } from './imports.routes.js';

/** Imports of subjects from CSV or XLSX (issue 29): /api/ops/imports/ and the demo's import. */
export default {
  name: 'imports',
  routes: importsRoutes,
  // after the core seed's customers
  seedOrder: 950,
  seedDemo: seedImportDemo,
} satisfies KestrelModule;
