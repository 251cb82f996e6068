import type { Tx } from '../../db/connection.js';
import { caseOnlineIdv } from './online-idv.table.js';

/**
 * A case's online identity check already finished (passed unless told otherwise), for tests
 * that start from a verified identity: what the provider's callback would have stored.
 */
export async function createCaseOnlineIdv(
  tx: Tx,
  input: { customerId: number; caseId: number; status?: 'passed' | 'failed' },
): Promise<void> {
  const now = new Date();
  const status = input.status ?? 'passed';
  await tx.insert(caseOnlineIdv).values({
    customerId: input.customerId,
    caseId: input.caseId,
    provider: 'simulator',
    session: `test-session-${input.caseId}`,
    sessionUrl: '',
    status,
    ibvVerified: status === 'passed',
    startedAt: now,
    completedAt: now,
  });
}
