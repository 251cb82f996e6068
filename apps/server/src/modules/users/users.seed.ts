import { createProductUser, createRole } from '../../db/factories.js';
import { DEMO_PASSWORD } from '../../db/seed.js';
import type { DemoSeedContext } from '../../platform/module.js';

/**
 * Acme's staff in each state for the users screens: a custom role ('Site manager'), an active
 * site manager, an invited recruiter who has not claimed the account yet, and a deactivated
 * former employee.
 */
export async function seedUsersDemo(ctx: DemoSeedContext): Promise<void> {
  const { tx } = ctx;
  const customerId = ctx.customers.acme;
  const manager = await createRole(tx, {
    customerId,
    name: 'Site manager',
    permissions: [
      'cases.view_case',
      'cases.add_case',
      'cases.view_caseactivity',
      'subjects.view_subject',
      'subjects.add_subject',
      'processes.view_process',
      'users.view_productuser',
      'roles.view_role',
    ],
  });
  await createProductUser(tx, {
    customerId,
    username: 'site.manager@acme.test',
    firstName: 'Maya',
    lastName: 'Okafor',
    jobTitle: 'Site manager',
    password: DEMO_PASSWORD,
    roles: [manager.id],
  });
  await createProductUser(tx, {
    customerId,
    username: 'recruiter@acme.test',
    firstName: 'Reece',
    lastName: 'Tanner',
    jobTitle: 'Recruiter',
    password: null,
    roles: [manager.id],
  });
  await createProductUser(tx, {
    customerId,
    username: 'former.clerk@acme.test',
    firstName: 'Fern',
    lastName: 'Ashby',
    jobTitle: 'Clerk',
    isActive: false,
    roles: [manager.id],
  });
}
