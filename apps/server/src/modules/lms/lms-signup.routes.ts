import { emailSchema, forenameSchema, isoDateSchema, surnameSchema } from '@kestrel/domain';
import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import { actorOf } from '../../platform/access.js';
import { recordAudit } from '../../platform/audit.js';
import { absentBodyAsEmpty } from '../../platform/body-parsing.js';
import { API_MESSAGES, ValidationError } from '../../platform/errors.js';
import { passwordSchema } from '../../platform/password-rule.js';
import { hashPassword } from '../../platform/passwords.js';
import { runAsSystem } from '../../platform/service-context.js';
import { startSession } from '../../platform/session-cookie.js';
import { subjectLoginFor } from '../subjects/subjects.service.js';
import { findByEmail } from '../users/users.repo.js';
import { subjectUsers } from '../users/users.table.js';

/** What the applicant's sign-up asks: names, email, date of birth, a password and the terms. */
export const applicantSignUp = z.object({
  first_name: forenameSchema,
  last_name: surnameSchema,
  email: emailSchema,
  dob: isoDateSchema,
  password: passwordSchema,
  terms_agreed: z.literal(true, { error: 'You must agree to the terms to create an account.' }),
});

export const applicantSignUpOut = z.strictObject({
  csrf_token: z.string(),
  user_type: z.literal('SubjectUser'),
});

/** The youngest an applicant may be: a licence needs an adult (the date of birth checked). */
export const APPLICANT_MIN_AGE = 18;

/**
 * POST /api/lms/public/applicants/ (issue 32): a member of the public applying for a licence
 * makes their own account (a subject's login, of no council yet: the application makes the
 * council's record), is signed in, and goes back to the application portal. An email already
 * in use answers 400 as the organisation sign-up does; rate-limited per address.
 */
export async function lmsSignUpRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps: AppDeps = app.deps;
  r.post(
    '/api/lms/public/applicants/',
    {
      schema: {
        tags: ['lms'],
        body: applicantSignUp,
        response: { 201: applicantSignUpOut },
      },
      preValidation: absentBodyAsEmpty,
      config: { access: { audience: 'public' } },
    },
    async (request, reply) => {
      await deps.rateLimiter.hit([
        { key: `lms-signup:ip:${request.ip}`, max: deps.config.rateLimits.perAddress },
      ]);
      const input = request.body;
      const now = deps.clock.now();
      const adult = new Date(
        Date.UTC(now.getUTCFullYear() - APPLICANT_MIN_AGE, now.getUTCMonth(), now.getUTCDate()),
      );
      if (input.dob > adult.toISOString().slice(0, 10)) {
        throw ValidationError.of('dob', `You must be at least ${APPLICANT_MIN_AGE} to apply.`);
      }
      const passwordHash = await hashPassword(input.password);
      const email = input.email.trim().toLowerCase();
      const id = await runAsSystem(deps, async (ctx) => {
        if (await findByEmail(ctx.tx, email)) {
          throw ValidationError.of('email', API_MESSAGES.userEmailTaken);
        }
        // the login made as every subject's is (kestrel_subject_login), then its password set
        // only while it has none: two sign-ups of one email at once make one account
        const loginId = await subjectLoginFor(ctx.tx, {
          email,
          first_name: input.first_name,
          last_name: input.last_name,
          dob: input.dob,
        });
        const [login] = await ctx.tx
          .update(subjectUsers)
          .set({ passwordHash, passwordChangedAt: now, termsAgreedAt: now })
          .where(and(eq(subjectUsers.id, loginId), isNull(subjectUsers.passwordHash)))
          .returning({ id: subjectUsers.id });
        if (!login) throw ValidationError.of('email', API_MESSAGES.userEmailTaken);
        await recordAudit(
          ctx.tx,
          { ...actorOf(request), type: 'SubjectUser', id: login.id, name: email },
          {
            verb: 'registered',
            contentType: 'users.subjectuser',
            objectId: login.id,
            objectRepr: email,
            customerId: null,
          },
        );
        return login.id;
      });
      const csrf = await startSession(request, reply, {
        user: { type: 'SubjectUser', id },
        customerId: null,
      });
      return reply.code(201).send({ csrf_token: csrf, user_type: 'SubjectUser' as const });
    },
  );
}
