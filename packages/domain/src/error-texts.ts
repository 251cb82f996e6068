/** The error catalogue of spec point 8, literal. */
export const ERROR_TEXTS = {
  invalidLogin: 'Invalid login details',
  mfaRequired: 'MFA token required',
  permissionDenied: 'Permission denied',
  defaultError: 'An error has occurred',
  bootstrapFailed: 'Error in bootstrap promises',
  copied: 'Copied',
  copyFailed: 'Error copying',
  portalRetrieval: 'Error retrieving portal',
  defaultSuccess: 'Action performed successfully',
  unrecognisedCode: 'Unrecognised code',
  unexpectedStatus: 'Unexpected status.',
} as const;

export type ResourceAction = 'list' | 'retrieve' | 'add' | 'update' | 'delete';

/** 'Error getting list of {resource}', 'Error retrieving {item}', 'Error adding {item}', ... */
export function actionErrorText(action: ResourceAction, name: string): string {
  switch (action) {
    case 'list':
      return `Error getting list of ${name}`;
    case 'retrieve':
      return `Error retrieving ${name}`;
    case 'add':
      return `Error adding ${name}`;
    case 'update':
      return `Error updating ${name}`;
    case 'delete':
      return `Error deleting ${name}`;
  }
}

/** 'Successfully added/updated/deleted {item}'. */
export function actionSuccessText(action: 'add' | 'update' | 'delete', item: string): string {
  const verb = { add: 'added', update: 'updated', delete: 'deleted' }[action];
  return `Successfully ${verb} ${item}`;
}

/** Back-end field errors as lines of 'field: messages'. */
export function fieldErrorLines(errors: Record<string, readonly string[] | string>): string[] {
  return Object.entries(errors).map(
    ([field, messages]) =>
      `${field}: ${typeof messages === 'string' ? messages : messages.join(' ')}`,
  );
}
