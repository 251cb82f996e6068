import {
  productProfileUpdate as productUpdate,
  profileOut,
  profileUpdate,
  subjectProfileUpdate as subjectUpdate,
  totpCode,
  totpSecretOut,
} from '@kestrel/domain';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { Tx } from '../../db/connection.js';
import { actorOf, requireUser } from '../../platform/access.js';
import { diffChanges, recordAudit } from '../../platform/audit.js';
import type { SessionUser } from '../../platform/context.js';
import { NotFoundError, PermissionDeniedError, ValidationError } from '../../platform/errors.js';
import { parseBody } from '../../platform/query-params.js';
import { seal, unsealOrNull } from '../../platform/sealed-secrets.js';
import { crossTenantTx, SYSTEM_TX } from '../../platform/service-context.js';
import { startSession } from '../../platform/session-cookie.js';
import { checkTotp, newTotpSecret, totpUri } from '../../platform/totp.js';
import { limitKeys } from '../accounts/accounts.routes.js';
import { newerTotpStep } from '../accounts/accounts.service.js';
import { segmentsOfUsers } from '../segments/segment-users.js';
import { presentProductUser, presentSubjectUser } from './user.presenter.js';
import { getCustomer, getProductUser, getSubjectUser, roleNamesOf } from './users.repo.js';
import { productUsers, subjectUsers } from './users.table.js';

/** The profile of the logged-in user (product or subject shape). */
async function profileOf(request: FastifyRequest, tx: Tx, user: SessionUser) {
  const session = request.session;
  if (user.type === 'SubjectUser') {
    const row = await getSubjectUser(tx, user.id);
    if (!row) throw new NotFoundError();
    return presentSubjectUser(row);
  }
  const row = await getProductUser(tx, user.id);
  if (!row) throw new NotFoundError();
  const customerId = session?.customerId ?? null;
  const customer = customerId === null ? null : await getCustomer(tx, customerId);
  const roles = await roleNamesOf(tx, user.id);
  // Limited to segments: a user of segments who is not an administrator (kestrel_segment_scope)
  const segments =
    customerId === null || user.isOps || roles.includes('admin')
      ? []
      : ((await segmentsOfUsers(tx, customerId, [user.id])).get(user.id) ?? []);
  return presentProductUser(row, {
    roles,
    segments,
    isOps: user.isOps,
    customer: customer
      ? { id: customer.id, name: customer.name, demo_mode: customer.demoMode }
      : null,
    permissions: [...user.permissions],
    entitlements: session?.entitlements ?? [],
    requireTotp: customer?.requireTotp ?? false,
  });
}

/** Profile reads run in the ops context: an ops user's own row has no customer. */
function profileTx<T>(request: FastifyRequest, fn: (tx: Tx) => Promise<T>): Promise<T> {
  requireUser(request);
  return request.server.deps.db.transaction(crossTenantTx(actorOf(request)), fn);
}

/**
 * A change of one's own profile: the system's (decision 011: the ops role only reads logins and
 * staff accounts), with the acting user set for the audit and triggers.
 */
function profileChangeTx<T>(request: FastifyRequest, fn: (tx: Tx) => Promise<T>): Promise<T> {
  requireUser(request);
  return request.server.deps.db.transaction(
    { ...crossTenantTx(actorOf(request)), scope: 'system' },
    fn,
  );
}

const profileResponse = profileOut;
const totpBody = totpCode;

/**
 * PUT /api/user/ documents its body as either kind of profile (`profileUpdate`) but parses it in
 * the handler with the session's kind: a subject's `middlename` would otherwise be dropped by
 * the product branch of the union. This keeps the body as sent until then.
 */
const bodyAsSent = () => (data: unknown) => ({ value: data });

/** /api/user/: the profile and its TOTP settings. */
export async function userRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps = app.deps;
  const authenticated = { access: { audience: 'authenticated' as const } };

  r.get(
    '/api/user/',
    { schema: { tags: ['user'], response: { 200: profileResponse } }, config: authenticated },
    async (request) => {
      const user = requireUser(request);
      return profileTx(request, (tx) => profileOf(request, tx, user));
    },
  );

  r.put(
    '/api/user/',
    {
      schema: {
        tags: ['user'],
        body: profileUpdate,
        response: { 200: profileResponse },
      },
      validatorCompiler: bodyAsSent,
      config: authenticated,
    },
    async (request) => {
      const user = requireUser(request);
      const now = deps.clock.now();
      const schema = user.type === 'SubjectUser' ? subjectUpdate : productUpdate;
      const data = parseBody(schema, request.body);
      const out = await profileChangeTx(request, async (tx) => {
        const before = await profileOf(request, tx, user);
        const d = data;
        const terms = d.terms_agreed === true ? { termsAgreedAt: now } : {};
        if (user.type === 'SubjectUser') {
          const s = d as z.infer<typeof subjectUpdate>;
          const row = await getSubjectUser(tx, user.id);
          if (s.dob !== undefined && row && !row.canChangeDob && s.dob !== row.dob) {
            throw ValidationError.of('dob', 'Date of birth cannot be changed.');
          }
          const set = {
            ...(s.first_name !== undefined ? { firstName: s.first_name } : {}),
            ...(s.last_name !== undefined ? { lastName: s.last_name } : {}),
            ...(s.middlename !== undefined ? { middlename: s.middlename } : {}),
            ...(s.dark_mode !== undefined ? { darkMode: s.dark_mode } : {}),
            ...(s.dob !== undefined ? { dob: s.dob } : {}),
            ...(s.phone_number !== undefined ? { phoneNumber: s.phone_number } : {}),
            ...(s.dbs_email_notifications !== undefined
              ? { dbsEmailNotifications: s.dbs_email_notifications }
              : {}),
            ...terms,
          };
          // Nothing to set (`{}`): the profile as it is.
          if (Object.keys(set).length > 0) {
            await tx.update(subjectUsers).set(set).where(eq(subjectUsers.id, user.id));
          }
        } else {
          const p = d as z.infer<typeof productUpdate>;
          const set = {
            ...(p.first_name !== undefined ? { firstName: p.first_name } : {}),
            ...(p.last_name !== undefined ? { lastName: p.last_name } : {}),
            ...(p.job_title !== undefined ? { jobTitle: p.job_title } : {}),
            ...(p.dark_mode !== undefined ? { darkMode: p.dark_mode } : {}),
            ...(p.notifications !== undefined ? { notifications: p.notifications } : {}),
            ...(p.avatar !== undefined ? { avatar: p.avatar } : {}),
            ...terms,
          };
          if (Object.keys(set).length > 0) {
            await tx.update(productUsers).set(set).where(eq(productUsers.id, user.id));
          }
        }
        const after = await profileOf(request, tx, user);
        await recordAudit(tx, actorOf(request), {
          verb: 'updated',
          contentType: user.type === 'SubjectUser' ? 'users.subjectuser' : 'users.productuser',
          objectId: user.id,
          objectRepr: user.username,
          changes: diffChanges(before, after),
          customerId: user.homeCustomerId,
        });
        return after;
      });
      await deps.sessions.forgetUser(user.type, user.id);
      return out;
    },
  );

  const productOnly = (request: FastifyRequest) => {
    const user = requireUser(request);
    if (user.type !== 'ProductUser') throw new PermissionDeniedError();
    return user;
  };

  r.patch(
    '/api/user/totp-generate/',
    {
      schema: {
        tags: ['user'],
        response: { 200: totpSecretOut },
      },
      config: authenticated,
    },
    async (request) => {
      const user = productOnly(request);
      const secret = newTotpSecret();
      // Audited without the secret: only that a new one is pending confirmation.
      await deps.db.transaction(SYSTEM_TX, async (tx) => {
        await tx
          .update(productUsers)
          .set({ totpPendingSecret: seal(deps.secrets, 'totp', secret) })
          .where(eq(productUsers.id, user.id));
        await recordAudit(tx, actorOf(request), {
          verb: 'totp_generated',
          contentType: 'users.productuser',
          objectId: user.id,
          customerId: user.homeCustomerId,
        });
      });
      return { secret, otpauth_url: totpUri(secret, user.username) };
    },
  );

  /**
   * Checks a code against the user's pending or current secret (rate limited). A wrong code is
   * audited and refused; a right one gives its time step, which `change` must accept in the same
   * transaction as the change itself (see `changeTotp`).
   */
  async function checkCode(request: FastifyRequest, which: 'pending' | 'current', code: string) {
    const user = productOnly(request);
    await deps.rateLimiter.hit(limitKeys(request, 'totp', String(user.id)));
    const row = await deps.db.transaction(SYSTEM_TX, (tx) => getProductUser(tx, user.id));
    // `secret` is the stored (sealed) value: the change below requires it unchanged
    const secret = which === 'pending' ? row?.totpPendingSecret : row?.totpSecret;
    const plain = unsealOrNull(deps.secrets, 'totp', secret);
    const step = plain ? await checkTotp(plain, code, deps.clock.now()) : null;
    if (step === null || !secret) return refuseCode(request, user, 'totp_failed');
    return { user, step, secret };
  }

  async function refuseCode(
    request: FastifyRequest,
    user: SessionUser,
    verb: 'totp_failed' | 'totp_replayed',
  ): Promise<never> {
    await deps.db.transaction(SYSTEM_TX, (tx) =>
      recordAudit(tx, actorOf(request), {
        verb,
        contentType: 'users.productuser',
        objectId: user.id,
        customerId: user.homeCustomerId,
      }),
    );
    throw ValidationError.of('totp', 'Invalid code');
  }

  /**
   * One transaction: the code's step is accepted only if newer than the last one (else it is a
   * replay: audited, refused, nothing changed), with the TOTP change and its audit action.
   */
  async function changeTotp(
    request: FastifyRequest,
    checked: { user: SessionUser; step: number; secret: string },
    which: 'pending' | 'current',
    set: Partial<typeof productUsers.$inferInsert>,
    verb: 'totp_enabled' | 'totp_disabled',
  ) {
    const { user, step, secret } = checked;
    const done = await deps.db.transaction(SYSTEM_TX, async (tx) => {
      const [moved] = await tx
        .update(productUsers)
        .set({ totpLastStep: step, ...set })
        .where(
          and(
            eq(productUsers.id, user.id),
            newerTotpStep(step),
            // still the secret the code was checked against (not one generated meanwhile)
            eq(
              which === 'pending' ? productUsers.totpPendingSecret : productUsers.totpSecret,
              secret,
            ),
          ),
        )
        .returning({ id: productUsers.id });
      if (!moved) return false;
      await recordAudit(tx, actorOf(request), {
        verb,
        contentType: 'users.productuser',
        objectId: user.id,
        customerId: user.homeCustomerId,
      });
      return true;
    });
    if (!done) await refuseCode(request, user, 'totp_replayed');
  }

  /** After a TOTP change: end the user's other sessions and rotate this one. */
  async function afterSecurityChange(
    request: FastifyRequest,
    reply: Parameters<typeof startSession>[1],
    user: SessionUser,
  ) {
    const session = request.session;
    await deps.sessions.destroyAllForUser(user.type, user.id, session?.id);
    await startSession(request, reply, {
      user: { type: user.type, id: user.id },
      customerId: session?.customerId ?? null,
      keepCsrf: true,
      keepAuthTime: true,
    });
  }

  r.patch(
    '/api/user/totp-validate/',
    {
      schema: { tags: ['user'], body: totpBody, response: { 200: profileResponse } },
      config: authenticated,
    },
    async (request, reply) => {
      const checked = await checkCode(request, 'pending', request.body.totp);
      const { user } = checked;
      await changeTotp(
        request,
        checked,
        'pending',
        // the pending secret the code matched, still sealed (the update requires it still pending)
        { totpSecret: checked.secret, totpPendingSecret: null, totpEnabled: true },
        'totp_enabled',
      );
      await afterSecurityChange(request, reply, user);
      return profileTx(request, (tx) => profileOf(request, tx, user));
    },
  );

  r.patch(
    '/api/user/totp-disable/',
    {
      schema: { tags: ['user'], body: totpBody, response: { 200: profileResponse } },
      config: authenticated,
    },
    async (request, reply) => {
      const checked = await checkCode(request, 'current', request.body.totp);
      const { user } = checked;
      await changeTotp(
        request,
        checked,
        'current',
        // the next secret starts its own steps
        { totpSecret: null, totpPendingSecret: null, totpEnabled: false, totpLastStep: null },
        'totp_disabled',
      );
      await afterSecurityChange(request, reply, user);
      return profileTx(request, (tx) => profileOf(request, tx, user));
    },
  );
}
