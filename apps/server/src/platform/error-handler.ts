import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isDatabaseUnavailable } from '../db/connection.js';
import { auditRefusal } from './access.js';
import { AppError, fieldErrorsOf, PermissionDeniedError } from './errors.js';

/** The 503 answer while the database cannot be reached (DRF's ServiceUnavailable). */
export const DATABASE_UNAVAILABLE = 'Service temporarily unavailable, try again later.';

/** Maps every error to the API's shapes in one place. 5xx bodies are generic. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler(async (error: FastifyError | AppError, request, reply) => {
    // Every refused authorisation is audited here, once: checkAccess's, a service's own rule, the
    // ops context, a subject on a staff-only action.
    if (error instanceof PermissionDeniedError) {
      await auditRefusal(request, error.reason ?? error.detail).catch((err: unknown) =>
        request.log.error({ err }, 'could not audit a refusal'),
      );
    }
    if (error instanceof AppError) {
      return reply.code(error.statusCode).headers(error.headers).send(error.body);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields = fieldErrorsOf(
        error.validation.map((v) => ({
          key: v.instancePath.replace(/^\//, '').replaceAll('/', '.'),
          message: v.message ?? 'Invalid value',
        })),
      );
      return reply.code(400).send(fields);
    }
    if (isDatabaseUnavailable(error)) {
      // The database cannot be reached or the connection was lost: the request did not finish
      // (a write whose COMMIT got no answer is never acknowledged), and a later try may succeed.
      request.log.warn({ err: error }, 'database unavailable');
      return reply.code(503).send({ detail: DATABASE_UNAVAILABLE });
    }
    const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status >= 400 && status < 500) {
      const detail =
        status === 400 ? { non_field_errors: [error.message] } : { detail: error.message };
      return reply.code(status).send(detail);
    }
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send({ detail: 'A server error occurred.' });
  });
}
