import { and, eq, inArray, sql } from 'drizzle-orm';
import type { AppDeps } from '../../app-deps.js';
import type { Tx } from '../../db/connection.js';
import { recordAudit } from '../../platform/audit.js';
import type { Actor } from '../../platform/context.js';
import { runAsSystem } from '../../platform/service-context.js';
import { mergedDuplicateIds } from '../subjects/merged.js';
import { subjects } from '../subjects/subjects.table.js';
import { subjectUsers } from '../users/users.table.js';
import { erasureRequests } from './erasure-requests.table.js';

/**
 * After an erasure committed: the person's sign-in (one login across customers) is turned off and
 * its details blanked unless another customer still holds a record of them that is not erased;
 * the request's outcome notes which. The sign-ins of the duplicates merged into the record (a
 * duplicate may have had its own email, so its own sign-in) likewise. As the system (the login is
 * no one customer's), for `actor`.
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
      if (!record) return { signIn: 'kept' as const, closed: [] };
      const closed: number[] = [];
      const signIn = (await closeIfErased(tx, actor, customerId, record.login))
        ? ('disabled' as const)
        : ('kept' as const);
      if (signIn === 'disabled') closed.push(record.login);
      const duplicates = await mergedDuplicateIds(tx, customerId, subjectId);
      if (duplicates.length > 0) {
        const logins = await tx
          .selectDistinct({ login: subjects.userId })
          .from(subjects)
          .where(and(eq(subjects.customerId, customerId), inArray(subjects.id, duplicates)));
        for (const { login } of logins) {
          if (login === record.login) continue;
          if (await closeIfErased(tx, actor, customerId, login)) closed.push(login);
        }
      }
      await tx
        .update(erasureRequests)
        .set({
          outcome: sql`jsonb_set(${erasureRequests.outcome}, '{signIn}', to_jsonb(${signIn}::text))`,
        })
        .where(and(eq(erasureRequests.customerId, customerId), eq(erasureRequests.id, requestId)));
      return { signIn, closed };
    },
    actor,
  );
  for (const login of result.closed) await deps.sessions.destroyAllForUser('SubjectUser', login);
  return result.signIn;
}

/**
 * Turns sign-in `login` off and blanks its details (audited) when every record of it, at every
 * customer, is erased (by a carried-out request, or as a duplicate merged into an erased
 * record: its email an `@erased.invalid` one); true when it did.
 */
async function closeIfErased(
  tx: Tx,
  actor: Actor,
  customerId: number,
  login: number,
): Promise<boolean> {
  const [live] = await tx.execute<{ n: number }>(sql`
    select count(*)::int as n from subjects s
    where s.user_id = ${login} and s.email not like '%@erased.invalid' and not exists (
      select 1 from erasure_requests e
      where e.customer_id = s.customer_id and e.subject_id = s.id and e.state = 'completed')`);
  if (Number(live?.n ?? 0) > 0) return false;
  await tx
    .update(subjectUsers)
    .set({
      isActive: false,
      passwordHash: null,
      email: `erased-login-${login}@erased.invalid`,
      firstName: '',
      lastName: '',
      middlename: '',
      dob: null,
      phoneNumber: '',
    })
    .where(eq(subjectUsers.id, login));
  await recordAudit(tx, actor, {
    verb: 'sign_in_closed',
    contentType: 'users.subjectuser',
    objectId: login,
    objectRepr: `Sign-in ${login} (closed by an erasure)`,
    changes: { is_active: [true, false] },
    customerId,
  });
  return true;
}
