/** Field errors in the DRF shape: `{ field: [messages], non_field_errors: [...] }`. */
export type FieldErrors = Record<string, string[]>;

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
