import type { ActiveFlagsOut, EntitlementOut } from '@kestrel/domain';
import { list, listAll, request } from '../../api/client';
import type {
  ActivityType,
  BootstrapData,
  ContentType,
  CountryMap,
  Profile,
  UserType,
  Verb,
} from './types';

/**
 * Loads what every screen needs once per session (spec point 7, bootstrap data). Null when any
 * call fails: the caller shows 'Error in bootstrap promises'.
 */
export async function loadBootstrap(
  userType: UserType,
  sessionCustomer: number | null,
): Promise<BootstrapData | null> {
  const profileCall = request<Profile>('GET', '/api/user/', { expect: 200 });
  if (userType === 'SubjectUser') {
    const [profile, contentTypes, countries] = await Promise.all([
      profileCall,
      list<ContentType>('/api/s/content-types/', { page_size: 100 }),
      request<CountryMap>('GET', '/api/s/cases/country-map/', { expect: 200 }),
    ]);
    if (!profile.ok || !contentTypes.ok || !countries.ok) return null;
    return {
      profile: profile.data,
      contentTypes: contentTypes.data.results,
      activityTypes: [],
      verbs: [],
      entitlements: [],
      activeFlags: 0,
      countries: countries.data,
    };
  }
  // Ops staff outside a customer session have no customer to read entitlements and flags for.
  const customerScoped = sessionCustomer !== null;
  const [profile, contentTypes, activityTypes, verbs, entitlements, flags, countries] =
    await Promise.all([
      profileCall,
      list<ContentType>('/api/content-types/', { page_size: 100 }),
      listAll<ActivityType>('/api/activity-types/'),
      listAll<Verb>('/api/verbs/'),
      customerScoped ? listAll<EntitlementOut>('/api/entitlements/') : null,
      customerScoped
        ? request<ActiveFlagsOut>('GET', '/api/flags/active-count/', { expect: 200 })
        : null,
      request<CountryMap>('GET', '/api/countries/', { expect: 200 }),
    ]);
  if (!profile.ok || !contentTypes.ok || !activityTypes.ok || !verbs.ok || !countries.ok) {
    return null;
  }
  // The flags badge is for those who may see flags: a 403 (a custom role without
  // flags.view_flag, or two-factor sign-in still to set up) is a badge of 0, not a failure.
  const flagsRefused = flags !== null && !flags.ok && flags.status === 403;
  if ((entitlements && !entitlements.ok) || (flags && !flags.ok && !flagsRefused)) return null;
  return {
    profile: profile.data,
    contentTypes: contentTypes.data.results,
    activityTypes: activityTypes.data,
    verbs: verbs.data,
    entitlements: entitlements?.ok ? entitlements.data.map((e) => e.entitlement) : [],
    activeFlags: flags?.ok ? flags.data.active : 0,
    countries: countries.data,
  };
}
