import { MESSAGES } from '@kestrel/domain';

/** Field errors in the DRF shape: `{ field: [messages], non_field_errors: [...] }`. */
export type FieldErrors = Record<string, string[]>;

/**
 * The API's own (DRF) messages, named once; the spec's validation texts are the domain's
 * MESSAGES. Texts with a value are functions.
 */
export const API_MESSAGES = {
  wholeNumber: 'Enter a whole number.',
  validDate: 'Enter a valid date.',
  validBoolean: 'Enter a valid boolean.',
  oneCustomer: 'Enter one customer id.',
  validInteger: 'A valid integer is required.',
  noSuchObject: 'Invalid pk - object does not exist.',
  invalidPage: 'Invalid page.',
  subjectArchived: 'This subject is archived.',
  userEmailTaken: 'A user with this email already exists.',
  maxLength: (n: number) => `Ensure this field has no more than ${n} characters.`,
  invalidChoice: (value: string) =>
    `Select a valid choice. ${value} is not one of the available choices.`,
  doesNotExist: (pk: string | number) => `Invalid pk "${pk}" - object does not exist.`,
} as const;

/**
 * Field errors from validation issues (Zod's, or Fastify's schema errors), keyed by their dotted
 * path (`non_field_errors` for the whole body); a missing value reads 'Required'.
 */
export function fieldErrorsOf(issues: Iterable<{ key: string; message: string }>): FieldErrors {
  const fields: FieldErrors = {};
  for (const { key, message } of issues) {
    const field = key || 'non_field_errors';
    const text = /received undefined$/.test(message) ? MESSAGES.required : message;
    fields[field] = [...(fields[field] ?? []), text];
  }
  return fields;
}

/** The one error family; the error handler maps each to its HTTP answer. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body.detail === 'string' ? body.detail : `HTTP ${statusCode}`);
  }
}

export class ValidationError extends AppError {
  constructor(readonly fields: FieldErrors) {
    super(400, fields);
  }
  /** One message on one field (or non_field_errors). */
  static of(field: string, message: string): ValidationError {
    return new ValidationError({ [field]: [message] });
  }
  /** `value` is not one of a field's choices. */
  static invalidChoice(field: string, value: string): ValidationError {
    return ValidationError.of(field, API_MESSAGES.invalidChoice(value));
  }
  /** No object `pk` (of this tenant) behind a field's id. */
  static doesNotExist(field: string, pk: string | number): ValidationError {
    return ValidationError.of(field, API_MESSAGES.doesNotExist(pk));
  }
}

export class NotAuthenticatedError extends AppError {
  constructor(detail = 'Authentication credentials were not provided.') {
    super(401, { detail });
  }
}

/** A refused authorisation: 403, and audited by the error handler with `reason` (else `detail`). */
export class PermissionDeniedError extends AppError {
  constructor(
    readonly detail = 'You do not have permission to perform this action.',
    readonly reason?: string,
  ) {
    super(403, { detail });
  }
}

export class CsrfError extends AppError {
  constructor() {
    super(403, { detail: 'CSRF Failed' });
  }
}

/** Also the answer for another tenant's object: never 403, never its data. */
export class NotFoundError extends AppError {
  constructor(detail = 'Not found.') {
    super(404, { detail });
  }
  /** A list page past the last one. */
  static page(): NotFoundError {
    return new NotFoundError(API_MESSAGES.invalidPage);
  }
}

export class MethodNotAllowedError extends AppError {
  constructor(method: string) {
    super(405, { detail: `Method "${method}" not allowed.` });
  }
}

export class ConflictError extends AppError {
  constructor(detail: string) {
    super(409, { detail });
  }
}

export class RateLimitedError extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super(
      429,
      { detail: `Request was throttled. Expected available in ${retryAfterSeconds} seconds.` },
      { 'retry-after': String(retryAfterSeconds) },
    );
  }
}

export interface MaintenanceWindowView {
  start: string;
  end: string;
  warning_start: string;
}

export class MaintenanceError extends AppError {
  constructor(window: MaintenanceWindowView) {
    super(503, { detail: 'Down for maintenance', maintenance_window: window });
  }
}
