import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, type FieldErrors } from './errors.js';

function fieldMessage(message: string): string {
  return /received undefined$/.test(message) ? 'Required' : message;
}

/** Maps every error to the API's shapes in one place. 5xx bodies are generic. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      reply.code(error.statusCode).headers(error.headers).send(error.body);
      return;
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields: FieldErrors = {};
      for (const v of error.validation) {
        const key = v.instancePath.replace(/^\//, '').replaceAll('/', '.') || 'non_field_errors';
        fields[key] = [...(fields[key] ?? []), fieldMessage(v.message ?? 'Invalid value')];
      }
      reply.code(400).send(fields);
      return;
    }
    const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status >= 400 && status < 500) {
      const detail =
        status === 400 ? { non_field_errors: [error.message] } : { detail: error.message };
      reply.code(status).send(detail);
      return;
    }
    request.log.error({ err: error }, 'request failed');
    reply.code(500).send({ detail: 'A server error occurred.' });
  });
}
