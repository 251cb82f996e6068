import { ROLE_TEMPLATES } from '@kestrel/domain';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { AppDeps } from '../../app-deps.js';
import type { Tx } from '../../db/connection.js';
import { emailJob } from '../../jobs/send-email.js';
import { recordAudit } from '../../platform/audit.js';
import type { Actor, UserType } from '../../platform/context.js';
import { type EmailSite, emailSite } from '../../platform/email-site.js';
import { brandedEmail } from '../../platform/email-template.js';
import { API_MESSAGES, NotAuthenticatedError, ValidationError } from '../../platform/errors.js';
import type { MailMessage } from '../../platform/mailer.js';
import { hashPassword, verifyPassword } from '../../platform/passwords.js';
import { unseal } from '../../platform/sealed-secrets.js';
import type { ContextDeps } from '../../platform/service-context.js';
import { runAsSystem, SYSTEM_TX } from '../../platform/service-context.js';
import { accountTokens } from '../../platform/tables/sessions.table.js';
import { hashToken, newToken } from '../../platform/tokens.js';
import { checkTotp } from '../../platform/totp.js';
import { customers } from '../customers/customers.table.js';
import {
  findByEmail,
  findLoginCandidate,
  isOpsAccount,
  type LoginCandidate,
} from '../users/users.repo.js';
import { productUserRoles, productUsers, roles, subjectUsers } from '../users/users.table.js';

export const INVALID_LOGIN = 'Invalid login details';
export const MFA_REQUIRED = 'MFA token required';
const RESET_TTL_MS = 60 * 60_000;
/** Claim links live longer: subjects may open their invitation days later. */
export const CLAIM_TTL_MS = 7 * 24 * 60 * 60_000;

export interface LoggedIn {
  type: UserType;
  /** username (product) or email (subject) */
  name: string;
  id: number;
  customerId: number | null;
}

function actorFor(base: Actor, c: LoginCandidate | null): Actor {
  if (!c) return base;
  return {
    ...base,
    type: c.type,
    id: c.row.id,
    // The name a session of the account carries (first and last name, else the login), so
    // one person reads the same in every audit entry.
    name:
      `${c.row.firstName} ${c.row.lastName}`.trim() ||
      (c.type === 'ProductUser' ? c.row.username : c.row.email),
    customerId: c.customerId,
  };
}

/**
 * Checks username, password and (when the account has TOTP on) the code. Rate limiting has
 * already run. Wrong details → 401; a TOTP code needed → 400; TOTP failure or replay → 401.
 * Every outcome except "code required" is audited.
 */
export async function authenticate(
  deps: Pick<AppDeps, 'db' | 'clock' | 'secrets'>,
  actor: Actor,
  input: { username: string; password: string; totp?: string | undefined },
): Promise<LoggedIn> {
  const candidate = await deps.db.transaction(SYSTEM_TX, (tx) =>
    findLoginCandidate(tx, input.username),
  );
  const active = candidate?.row.isActive ? candidate : null;
  const ok = await verifyPassword(active?.row.passwordHash ?? null, input.password);
  const fail = async (verb: 'login_failed' | 'totp_failed' | 'totp_replayed') => {
    await deps.db.transaction(SYSTEM_TX, (tx) =>
      recordAudit(tx, actorFor(actor, active), {
        verb,
        objectRepr: input.username.slice(0, 200),
        customerId: active ? active.customerId : null,
      }),
    );
    throw new NotAuthenticatedError(INVALID_LOGIN);
  };
  if (!active || !ok) return fail('login_failed');

  if (active.type === 'ProductUser' && active.row.totpEnabled && active.row.totpSecret) {
    if (!input.totp) throw ValidationError.of('totp', MFA_REQUIRED);
    const secret = unseal(deps.secrets, 'totp', active.row.totpSecret);
    const step = await checkTotp(secret, input.totp, deps.clock.now());
    if (step === null) return fail('totp_failed');
    const accepted = await acceptTotpStep(deps, active.row.id, step);
    if (!accepted) return fail('totp_replayed');
  }
  return {
    type: active.type,
    id: active.row.id,
    customerId: active.customerId,
    name: active.type === 'ProductUser' ? active.row.username : active.row.email,
  };
}

/** True when the product user is ops staff (who may log in during maintenance). */
export function isOpsStaff(deps: Pick<AppDeps, 'db'>, userId: number): Promise<boolean> {
  return deps.db.transaction({ ...SYSTEM_TX, readOnly: true }, (tx) => isOpsAccount(tx, userId));
}

/** Stores the step if it is newer than the last accepted one; false means a replay. */
export async function acceptTotpStep(
  deps: Pick<AppDeps, 'db'>,
  userId: number,
  step: number,
): Promise<boolean> {
  const rows = await deps.db.transaction(SYSTEM_TX, (tx) =>
    tx
      .update(productUsers)
      .set({ totpLastStep: step })
      .where(and(eq(productUsers.id, userId), newerTotpStep(step)))
      .returning({ id: productUsers.id }),
  );
  return rows.length > 0;
}

/** The user's last accepted TOTP step is older than `step` (else the code is a replay). */
export const newerTotpStep = (step: number) =>
  sql`(${productUsers.totpLastStep} is null or ${productUsers.totpLastStep} < ${step})`;

/** The audit action of a login or logout, written in the session's own transaction. */
export function auditLogin(
  actor: Actor,
  who: LoggedIn & { name: string },
  verb: 'logged_in' | 'logged_out',
): (tx: Tx) => Promise<unknown> {
  return async (tx) => {
    // Under the person's name (as everything its session does), the login name as a fallback.
    const table = who.type === 'ProductUser' ? productUsers : subjectUsers;
    const [person] = await tx
      .select({ name: sql<string>`trim(${table.firstName} || ' ' || ${table.lastName})` })
      .from(table)
      .where(eq(table.id, who.id));
    const name = person?.name || who.name;
    return recordAudit(
      tx,
      { ...actor, type: who.type, id: who.id, customerId: who.customerId, name },
      {
        verb,
        contentType: who.type === 'ProductUser' ? 'users.productuser' : 'users.subjectuser',
        objectId: who.id,
        customerId: who.customerId,
      },
    );
  };
}

/** Creates a single-use token for an account and returns it in clear (for the email link). */
export async function issueAccountToken(
  tx: Tx,
  now: Date,
  opts: {
    purpose: 'reset' | 'claim';
    type: UserType;
    id: number;
    customerId: number | null;
    ttlMs: number;
  },
): Promise<string> {
  const token = newToken();
  await tx.insert(accountTokens).values({
    tokenHash: hashToken(token),
    purpose: opts.purpose,
    userType: opts.type,
    userId: opts.id,
    customerId: opts.customerId,
    expiresAt: new Date(now.getTime() + opts.ttlMs),
  });
  return token;
}

/**
 * Enqueues a reset link when the email belongs to an active account; silent otherwise. Either way
 * the request is audited in one transaction (an unknown address with what was typed, no object),
 * so both answers cost about the same: the caller cannot tell them apart, by body or by time.
 */
export async function requestPasswordReset(
  deps: ContextDeps & { publicUrl: string },
  actor: Actor,
  email: string,
): Promise<void> {
  await runAsSystem(
    deps,
    async ({ tx, clock, enqueue }) => {
      const now = clock.now();
      const c = await findByEmail(tx, email);
      if (!c?.row.isActive || (c.type === 'SubjectUser' && !c.row.passwordHash)) {
        await recordAudit(tx, actor, {
          verb: 'password_reset_requested',
          objectRepr: `no active account: ${email.trim().toLowerCase()}`.slice(0, 200),
          customerId: null,
        });
        return;
      }
      const token = await issueAccountToken(tx, now, {
        purpose: 'reset',
        type: c.type,
        id: c.row.id,
        customerId: c.customerId,
        ttlMs: RESET_TTL_MS,
      });
      await recordAudit(tx, actorFor(actor, c), {
        verb: 'password_reset_requested',
        objectId: c.row.id,
        customerId: c.customerId,
      });
      // The email is a job of this transaction: the answer never waits for the mail server.
      // It is in the brand of the host the request came through, and links there.
      const site = emailSite(actor.brandAddress, deps.publicUrl);
      const link = `${site.publicUrl}/auth/password-reset-confirm?token=${encodeURIComponent(token)}`;
      await enqueue(
        emailJob(
          brandedEmail(site, {
            to: c.row.email,
            subject: `Reset your ${site.brand.name} password`,
            greeting: `Hello${c.row.firstName ? ` ${c.row.firstName}` : ''},`,
            paragraphs: [`Someone asked to reset the password of your ${site.brand.name} account.`],
            action: { label: 'Choose a new password', url: link },
            after: ['The link works once, for one hour. If you did not ask, ignore this email.'],
          }),
        ),
      );
    },
    actor,
  );
}

/**
 * Invites a subject (created without a password) to claim its account: issues a claim token in
 * the caller's transaction and returns the email (in the site's brand, linking there), to
 * enqueue in the same transaction:
 * `await ctx.enqueue(emailJob(await claimInvitation(tx, now, site, subject)))`.
 */
export async function claimInvitation(
  tx: Tx,
  now: Date,
  site: EmailSite,
  subject: { userId: number; customerId: number; email: string; firstName?: string },
  customerName = 'your organisation',
  extra: readonly string[] = [],
  reminder = false,
): Promise<MailMessage> {
  const token = await issueAccountToken(tx, now, {
    purpose: 'claim',
    type: 'SubjectUser',
    id: subject.userId,
    customerId: subject.customerId,
    ttlMs: CLAIM_TTL_MS,
  });
  const link = `${site.publicUrl}/auth/claim-account?token=${encodeURIComponent(token)}`;
  return brandedEmail(site, {
    to: subject.email,
    subject: `${reminder ? 'Reminder: ' : ''}Your ${site.brand.name} account`,
    greeting: `Hello${subject.firstName ? ` ${subject.firstName}` : ''},`,
    paragraphs: [
      `${customerName} has asked you to complete some checks in ${site.brand.name}.`,
      ...extra,
    ],
    action: { label: 'Set your password and start', url: link },
    after: ['The link works once, for seven days.'],
  });
}

/**
 * Consumes a reset or claim token and sets the password. Ends every session of the account.
 * Returns the account so the caller may log it in.
 */
export async function consumeTokenSetPassword(
  deps: Pick<AppDeps, 'db' | 'clock' | 'sessions'>,
  actor: Actor,
  purpose: 'reset' | 'claim',
  token: string,
  password: string,
): Promise<LoggedIn> {
  const now = deps.clock.now();
  const passwordHash = await hashPassword(password);
  const who = await deps.db.transaction(SYSTEM_TX, async (tx) => {
    const [t] = await tx
      .update(accountTokens)
      .set({ usedAt: now })
      .where(
        and(
          eq(accountTokens.tokenHash, hashToken(token)),
          eq(accountTokens.purpose, purpose),
          isNull(accountTokens.usedAt),
          gt(accountTokens.expiresAt, now),
        ),
      )
      .returning();
    if (!t) throw ValidationError.of('token', 'Invalid or expired token');
    const type = t.userType === 'SubjectUser' ? 'SubjectUser' : 'ProductUser';
    if (type === 'ProductUser') {
      await tx
        .update(productUsers)
        .set({ passwordHash, passwordChangedAt: now })
        .where(eq(productUsers.id, t.userId));
    } else {
      await tx
        .update(subjectUsers)
        .set({ passwordHash, passwordChangedAt: now })
        .where(eq(subjectUsers.id, t.userId));
    }
    const result: LoggedIn = { type, id: t.userId, customerId: t.customerId, name: '' };
    await recordAudit(
      tx,
      { ...actor, type, id: t.userId, customerId: t.customerId },
      {
        verb: purpose === 'claim' ? 'account_claimed' : 'password_changed',
        contentType: type === 'ProductUser' ? 'users.productuser' : 'users.subjectuser',
        objectId: t.userId,
        customerId: t.customerId,
      },
    );
    return result;
  });
  await deps.sessions.destroyAllForUser(who.type, who.id);
  return who;
}

/** A new customer with its first administrator (self-service signup). */
export async function registerCustomer(
  deps: Pick<AppDeps, 'db'>,
  actor: Actor,
  input: {
    customer_name: string;
    first_name: string;
    last_name: string;
    email: string;
    password: string;
  },
): Promise<LoggedIn> {
  const passwordHash = await hashPassword(input.password);
  return deps.db.transaction(SYSTEM_TX, async (tx) => {
    const taken = await findLoginCandidate(tx, input.email);
    if (taken) throw ValidationError.of('email', API_MESSAGES.userEmailTaken);
    const [customer] = await tx.insert(customers).values({ name: input.customer_name }).returning();
    if (!customer) throw new Error('customer insert returned nothing');
    // A new organisation can run every kind of check until ops narrow its offer.
    await tx.execute(sql`
      insert into customer_activity_types (customer_id, activity_type_id)
      select ${customer.id}, id from activity_types`);
    const [role] = await tx
      .insert(roles)
      .values({ customerId: customer.id, name: 'admin', permissions: [...ROLE_TEMPLATES.admin] })
      .returning();
    const [user] = await tx
      .insert(productUsers)
      .values({
        customerId: customer.id,
        username: input.email.toLowerCase(),
        email: input.email.toLowerCase(),
        firstName: input.first_name,
        lastName: input.last_name,
        passwordHash,
      })
      .returning();
    if (!role || !user) throw new Error('registration insert returned nothing');
    await tx
      .insert(productUserRoles)
      .values({ customerId: customer.id, userId: user.id, roleId: role.id });
    await recordAudit(
      tx,
      { ...actor, type: 'ProductUser', id: user.id, customerId: customer.id, name: user.username },
      {
        verb: 'registered',
        contentType: 'customers.customer',
        objectId: customer.id,
        objectRepr: customer.name,
        customerId: customer.id,
      },
    );
    return { type: 'ProductUser', id: user.id, customerId: customer.id, name: user.username };
  });
}
