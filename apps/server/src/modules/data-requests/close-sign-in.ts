import { and, eq, sql } from 'drizzle-orm';
import type { AppDeps } from '../../app-deps.js';
import { recordAudit } from '../../platform/audit.js';
import type { Actor } from '../../platform/context.js';
import { runAsSystem } from '../../platform/service-context.js';
import { subjects } from '../subjects/subjects.table.js';
import { subjectUsers } from '../users/users.table.js';
import { erasureRequests } from './erasure-requests.table.js';

/**
 * After an erasure committed: the person's sign-in (one login across customers) is turned off and
 * its details blanked unless another customer still holds a record of them that is not erased;
 * the request's outcome notes which. As the system (the login is no one customer's), for `actor`.
 */
export async function closeSignInAfterErasure(
  deps: Pick<AppDeps, 'db' | 'clock' | 'sessions'>,
  actor: Actor,
  customerId: number,
  subjectId: number,
  requestId: number,
): Promise<'disabled' | 'kept'> {
  const result = await runAsSystem(
    deps,
    async ({ tx }) => {
      const [record] = await tx
        .select({ login: subjects.userId })
        .from(subjects)
        .where(and(eq(subjects.customerId, customerId), eq(subjects.id, subjectId)));
      if (!record) return { signIn: 'kept' as const, login: null };
      const [live] = await tx.execute<{ n: number }>(sql`
        select count(*)::int as n from subjects s
        where s.user_id = ${record.login} and not exists (
          select 1 from erasure_requests e
          where e.customer_id = s.customer_id and e.subject_id = s.id and e.state = 'completed')`);
      const signIn = Number(live?.n ?? 0) === 0 ? ('disabled' as const) : ('kept' as const);
      if (signIn === 'disabled') {
        await tx
          .update(subjectUsers)
          .set({
            isActive: false,
            passwordHash: null,
            email: `erased-login-${record.login}@erased.invalid`,
            firstName: '',
            lastName: '',
            middlename: '',
            dob: null,
            phoneNumber: '',
          })
          .where(eq(subjectUsers.id, record.login));
        await recordAudit(tx, actor, {
          verb: 'sign_in_closed',
          contentType: 'users.subjectuser',
          objectId: record.login,
          objectRepr: `Sign-in ${record.login} (closed by an erasure)`,
          changes: { is_active: [true, false] },
          customerId,
        });
      }
      await tx
        .update(erasureRequests)
        .set({
          outcome: sql`jsonb_set(${erasureRequests.outcome}, '{signIn}', to_jsonb(${signIn}::text))`,
        })
        .where(and(eq(erasureRequests.customerId, customerId), eq(erasureRequests.id, requestId)));
      return { signIn, login: record.login };
    },
    actor,
  );
  if (result.signIn === 'disabled' && result.login !== null) {
    await deps.sessions.destroyAllForUser('SubjectUser', result.login);
  }
  return result.signIn;
}
