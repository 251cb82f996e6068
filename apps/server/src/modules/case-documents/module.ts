import type { KestrelModule } from '../../platform/module.js';
import { caseDocumentsRoutes } from './case-documents.routes.js';

export default {
  name: 'case-documents',
  routes: caseDocumentsRoutes,
  contentTypes: ['cases.casedocument'],
} satisfies KestrelModule;
