import type { KestrelModule } from '../../platform/module.js';
import { caseDocumentsRoutes } from './case-documents.routes.js';
import { seedRejectedDocumentDemo } from './demo.seed.js';

export default {
  name: 'case-documents',
  routes: caseDocumentsRoutes,
  contentTypes: ['cases.casedocument'],
  // after the portal (105), the case data (110), the checks' results (120) and trust-to-ride (130)
  seedOrder: 140,
  seedDemo: seedRejectedDocumentDemo,
} satisfies KestrelModule;
