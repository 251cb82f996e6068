import { USER_ADMIN_MESSAGES, type UserOut } from '@kestrel/domain';
import { and, eq, isNull } from 'drizzle-orm';
import { recordAudit } from '../../../platform/audit.js';
import type { Actor } from '../../../platform/context.js';
import { ValidationError } from '../../../platform/errors.js';
import { type ContextDeps, runAsSystem, runInTenant } from '../../../platform/service-context.js';
import { accountTokens } from '../../../platform/tables/sessions.table.js';
import { findUser, USER_CT, type UserRow, userOutOf } from '../users.service.js';
import { productUsers } from '../users.table.js';
import { type InvitationDeps, sendInvitation } from './invite-user.js';

/** The user `id` of the tenant, refused unless still invited (never claimed, not deactivated). */
async function invitedUser(deps: ContextDeps, actor: Actor, id: number): Promise<UserRow> {
  return runInTenant(deps, actor, async ({ tx }) => {
    const u = await findUser(tx, id);
    const out = await userOutOf(tx, u);
    if (out.status === 'deactivated') {
      throw ValidationError.of('non_field_errors', USER_ADMIN_MESSAGES.deactivatedInvitation);
    }
    if (out.status !== 'invited') {
      throw ValidationError.of('non_field_errors', USER_ADMIN_MESSAGES.notInvited);
    }
    return u;
  });
}

/** Ends every unused set-password link of a staff member (the system's: tokens are its own). */
async function expireLinks(deps: ContextDeps, userId: number): Promise<void> {
  await runAsSystem(deps, async ({ tx }) => {
    await tx
      .update(accountTokens)
      .set({ usedAt: deps.clock.now() })
      .where(
        and(
          eq(accountTokens.userType, 'ProductUser'),
          eq(accountTokens.userId, userId),
          isNull(accountTokens.usedAt),
        ),
      );
  });
}

/**
 * POST /api/users/{id}/resend-invitation/: the earlier links stop working and a new one goes
 * out (a reminder, in the customer's brand), audited.
 */
export async function resendInvitation(
  deps: ContextDeps,
  mail: InvitationDeps,
  actor: Actor,
  id: number,
): Promise<UserOut> {
  await invitedUser(deps, actor, id);
  await expireLinks(deps, id);
  return runInTenant(deps, actor, async (ctx) => {
    const u = await findUser(ctx.tx, id);
    await sendInvitation(ctx, mail, u, true);
    await recordAudit(ctx.tx, actor, {
      verb: 'invitation_sent',
      contentType: USER_CT,
      objectId: u.id,
      objectRepr: u.username,
    });
    return userOutOf(ctx.tx, u);
  });
}

/**
 * POST /api/users/{id}/revoke-invitation/: the links stop working and the invited user, who
 * never signed in, is removed (the email may be invited again), audited.
 */
export async function revokeInvitation(deps: ContextDeps, actor: Actor, id: number): Promise<void> {
  await invitedUser(deps, actor, id);
  await expireLinks(deps, id);
  await runInTenant(deps, actor, async ({ tx }) => {
    const u = await findUser(tx, id);
    await tx.delete(productUsers).where(eq(productUsers.id, u.id));
    await recordAudit(tx, actor, {
      verb: 'deleted',
      contentType: USER_CT,
      objectId: u.id,
      objectRepr: u.username,
      changes: { invitation: 'revoked' },
    });
  });
}
