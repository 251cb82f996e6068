import type { FastifyInstance } from 'fastify';
import type { KestrelModule } from '../../platform/module.js';
import { subjectConsentsRoutes } from './subject-consents.routes.js';
import { seedSubjectConsentsDemo } from './subject-consents.seed.js';
import { subjectsRoutes } from './subjects.routes.js';

export default {
  name: 'subjects',
  routes: async (app: FastifyInstance) => {
    await subjectsRoutes(app);
    await subjectConsentsRoutes(app);
  },
  contentTypes: ['subjects.subject'],
  seedDemo: seedSubjectConsentsDemo,
  // after the cases' and the portal's demo data
  seedOrder: 220,
} satisfies KestrelModule;
