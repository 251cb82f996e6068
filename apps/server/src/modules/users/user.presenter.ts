import type { Entitlement, Permission } from '@kestrel/domain';
import { iso } from '../../platform/clock.js';
import type { ProductUserRow, SubjectUserRow } from './users.repo.js';

export function presentProductUser(
  u: ProductUserRow,
  extra: {
    roles: string[];
    isOps: boolean;
    customer: { id: number; name: string; demo_mode: boolean } | null;
    permissions: readonly Permission[];
    entitlements: readonly Entitlement[];
    /** The session's organisation requires two-factor sign-in (customers.require_totp). */
    requireTotp?: boolean;
    /** The segments the user is limited to ([]: the whole organisation). */
    segments?: readonly number[];
  },
) {
  return {
    id: u.id,
    user_type: 'ProductUser' as const,
    first_name: u.firstName,
    last_name: u.lastName,
    username: u.username,
    email: u.email,
    job_title: u.jobTitle,
    dark_mode: u.darkMode,
    totp_enabled: u.totpEnabled,
    // ops staff act for customers but are not their staff: the policy is not theirs
    totp_setup_required: (extra.requireTotp ?? false) && !u.totpEnabled && !extra.isOps,
    notifications: u.notifications,
    avatar: u.avatar,
    roles: extra.roles,
    is_ops: extra.isOps,
    customer: extra.customer,
    session_permissions: [...extra.permissions].sort(),
    entitlements: [...extra.entitlements],
    terms_agreed_at: iso(u.termsAgreedAt),
    segments: [...(extra.segments ?? [])],
  };
}

export function presentSubjectUser(u: SubjectUserRow) {
  return {
    id: u.id,
    user_type: 'SubjectUser' as const,
    first_name: u.firstName,
    last_name: u.lastName,
    middlename: u.middlename,
    email: u.email,
    dark_mode: u.darkMode,
    dob: u.dob,
    can_change_dob: u.canChangeDob,
    phone_number: u.phoneNumber,
    terms_agreed_at: iso(u.termsAgreedAt),
    dbs_email_notifications: u.dbsEmailNotifications,
    dvla_reconsents: u.dvlaReconsents,
  };
}
