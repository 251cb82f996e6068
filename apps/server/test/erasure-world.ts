import type { CaseActivityState } from '@kestrel/domain';
import type { Tx } from '../src/db/connection.js';
import {
  buildTestApp,
  type Client,
  createCase,
  createCustomer,
  createProcess,
  createProductUser,
  createSubjectUser,
  login,
  type SubjectUserInput,
  type TestApp,
} from './helpers.js';

/**
 * The erasure tests' world: the app (no job workers), customer Acme and its administrator
 * `admin@acme.test`, signed in. Call in a test file's beforeAll; the file closes `t` afterwards.
 */
export async function erasureWorld(): Promise<{ t: TestApp; acme: number; admin: Client }> {
  const t = await buildTestApp({ config: { jobWorkers: false } });
  const acme = await t.owner(async (tx) => {
    const id = (await createCustomer(tx, { name: 'Acme' })).id;
    await createProductUser(tx, { customerId: id, username: 'admin@acme.test', roles: ['admin'] });
    return id;
  });
  return { t, acme, admin: await login(t.app, 'admin@acme.test') };
}

/** A subject of `customerId` (`person`) with a case of a basic DBS check in `state`. */
export async function subjectWithCase(
  tx: Tx,
  customerId: number,
  person: SubjectUserInput,
  state: CaseActivityState,
) {
  const subject = await createSubjectUser(tx, { ...person, customerId });
  const process = await createProcess(tx, { customerId, requirements: ['dbs-basic'] });
  const c = await createCase(tx, {
    customerId,
    processId: process.id,
    subjectId: subject.id,
    activityStates: [state],
  });
  return { subject, case: c };
}
