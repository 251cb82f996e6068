/**
 * The audit log in words people use: object types ('users.productuser' → 'User'), actions
 * ('logged_in' → 'Logged in') and actors (the system is 'System').
 */
const CONTENT_TYPE_NAMES: Record<string, string> = {
  'activities.activitytype': 'Check type',
  'audit.auditaction': 'Audit entry',
  'audit.recordview': 'Record view',
  'audit.securityrefusal': 'Refused request',
  'audit.verb': 'Audit action',
  'cases.case': 'Case',
  'cases.caseactivity': 'Check',
  'cases.casedocument': 'Document',
  'contenttypes.contenttype': 'Object type',
  'customers.customer': 'Organisation',
  'customers.entitlement': 'Entitlement',
  'data_requests.erasurerequest': 'Erasure request',
  'flags.flag': 'Flag',
  'maintenance.maintenancewindow': 'Maintenance window',
  'outbox.email': 'Email',
  'processes.process': 'Process',
  'regportals.portalregistration': 'Portal registration',
  'regportals.registrationportal': 'Registration portal',
  'retention.caseretention': 'Case retention',
  'retention.retentionsettings': 'Retention settings',
  'subjects.subject': 'Subject',
  'users.productuser': 'User',
  'users.role': 'Role',
  'users.subjectuser': 'Subject account',
};

/** A code in words: 'logged_in' → 'Logged in', 'maintenancewindow' → 'Maintenancewindow'. */
export function codeInWords(code: string): string {
  const words = code.replace(/[_-]+/g, ' ').trim().toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** 'users.productuser' → 'User'; an unknown type → its model in words; '' → ''. */
export function contentTypeName(contentType: string): string {
  if (contentType === '') return '';
  return (
    CONTENT_TYPE_NAMES[contentType] ??
    codeInWords(contentType.slice(contentType.lastIndexOf('.') + 1))
  );
}

/** What an entry was done to, beside its description: 'User #2', 'Case #14', 'Flag'. */
export function auditObjectText(contentType: string, objectId: string | null): string {
  const name = contentTypeName(contentType);
  if (!objectId) return name;
  return name ? `${name} #${objectId}` : `#${objectId}`;
}

/** A recorded actor name as shown: the system's ('system', or none) is 'System'. */
export function actorNameText(name: string | null): string {
  const n = (name ?? '').trim();
  return n === '' || n.toLowerCase() === 'system' ? 'System' : n;
}

/** The actor of an audit entry as shown: 'System' for the system (no actor type, or 'system'). */
export function auditActorName(name: string, actorType: string | null): string {
  return actorType === null ? 'System' : actorNameText(name);
}

/**
 * A subject's portal account in words, the same on every screen: 'Has account', else 'No account
 * yet' (a subject added without a case has not been invited, so 'Invited' would not be true).
 */
export function subjectAccountText(hasAccount: boolean): string {
  return hasAccount ? 'Has account' : 'No account yet';
}
