import type { KestrelModule } from '../../platform/module.js';
import { knowledgeTestRoutes } from '../checks/knowledge-test/paper-result.js';

/**
 * The knowledge test's own route (operations' pass/fail for a test taken on paper): the kind
 * lives in checks/knowledge-test; module discovery reads only this level of folders.
 */
export default {
  name: 'knowledge-test',
  routes: knowledgeTestRoutes,
} satisfies KestrelModule;
