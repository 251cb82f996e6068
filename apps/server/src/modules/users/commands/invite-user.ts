import type { UserCreate, UserOut } from '@kestrel/domain';
import { emailJob } from '../../../jobs/send-email.js';
import { recordAudit } from '../../../platform/audit.js';
import type { Actor } from '../../../platform/context.js';
import { brandedEmail } from '../../../platform/email-template.js';
import { API_MESSAGES, ValidationError } from '../../../platform/errors.js';
import {
  type ContextDeps,
  runAsSystem,
  type ServiceContext,
} from '../../../platform/service-context.js';
import { issueAccountToken } from '../../accounts/accounts.service.js';
import { setUserSegments } from '../../segments/segment-users.js';
import { findLoginCandidate } from '../users.repo.js';
import { customerEmailSite, setRoles, USER_CT, type UserRow, userOutOf } from '../users.service.js';
import { productUsers } from '../users.table.js';

/** How long the set-password link of an invitation works. */
export const SET_PASSWORD_TTL_MS = 7 * 24 * 60 * 60_000;

/** What the invitation needs besides the context: where the link in its email points. */
export interface InvitationDeps {
  /** The product's public address (config.publicUrl), without a trailing slash. */
  publicUrl: string;
}

/**
 * The checks an invitation needs before its transaction: the actor acts for a customer, and the
 * email is no one's login yet. A login is global, so this reads every tenant (as the system),
 * which the tenant transaction of `inviteUser` cannot; the unique index on usernames still
 * refuses a race.
 */
export async function checkInvitation(
  deps: ContextDeps,
  actor: Actor,
  input: Pick<UserCreate, 'email'>,
): Promise<void> {
  if (actor.customerId === null) {
    throw ValidationError.of('non_field_errors', 'Start an ops session for a customer first.');
  }
  if (await runAsSystem(deps, ({ tx }) => findLoginCandidate(tx, input.email))) {
    throw ValidationError.of('email', API_MESSAGES.userEmailTaken);
  }
}

/**
 * Invites a staff member to the context's customer (users, roles, accounts and mail): the user
 * with its roles, a single-use set-password token, the audit row, and the invitation email
 * enqueued in the same transaction (a crash after commit cannot lose it; a rollback drops it).
 * Runs from a route (after `checkInvitation`) or without any request.
 */
export async function inviteUser(
  ctx: ServiceContext,
  deps: InvitationDeps,
  input: UserCreate,
): Promise<UserOut> {
  const { tx, actor } = ctx;
  if (actor.customerId === null) {
    throw ValidationError.of('non_field_errors', 'Start an ops session for a customer first.');
  }
  const email = input.email.toLowerCase();
  const [u] = await tx
    .insert(productUsers)
    .values({
      customerId: actor.customerId,
      username: email,
      email,
      firstName: input.first_name,
      lastName: input.last_name,
      jobTitle: input.job_title,
    })
    .returning();
  if (!u) throw new Error('insert returned nothing');
  await setRoles(tx, actor.customerId, u.id, input.roles, actor);
  await setUserSegments(tx, actor.customerId, u.id, input.segments);
  const out = await userOutOf(tx, u);
  await recordAudit(tx, actor, {
    verb: 'created',
    contentType: USER_CT,
    objectId: u.id,
    objectRepr: u.username,
    changes: out,
  });
  await sendInvitation(ctx, deps, u, false);
  return out;
}

/**
 * Issues a set-password token for an invited user and enqueues the invitation email in the
 * context's transaction: in the customer's brand (customers.brand), linking to the host the
 * inviting person used when it is that brand's (issue 14), else to PUBLIC_URL.
 */
export async function sendInvitation(
  ctx: ServiceContext,
  deps: InvitationDeps,
  u: UserRow,
  reminder: boolean,
): Promise<void> {
  const { tx, actor } = ctx;
  if (u.customerId === null) throw new Error('a staff invitation needs a customer');
  const token = await issueAccountToken(tx, ctx.clock.now(), {
    purpose: 'reset',
    type: 'ProductUser',
    id: u.id,
    customerId: u.customerId,
    ttlMs: SET_PASSWORD_TTL_MS,
  });
  const site = await customerEmailSite(tx, u.customerId, actor.brandAddress, deps.publicUrl);
  const link = `${site.publicUrl}/auth/set-password?token=${encodeURIComponent(token)}`;
  await ctx.enqueue(
    emailJob(
      brandedEmail(site, {
        to: u.email,
        subject: `${reminder ? 'Reminder: ' : ''}Your ${site.brand.name} account`,
        greeting: `Hello ${u.firstName},`,
        paragraphs: [`An account has been created for you in ${site.brand.name}.`],
        action: { label: 'Choose your password', url: link },
        after: ['The link works once, for seven days.'],
      }),
    ),
  );
}
