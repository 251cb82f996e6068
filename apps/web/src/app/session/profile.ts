import { request } from '../../api/client';
import { getSession, setSession, useSession } from './session-store';
import type { ProductProfile, Profile, SubjectProfile } from './types';

export function useProfile(): Profile | null {
  return useSession().bootstrap?.profile ?? null;
}

export function useProductProfile(): ProductProfile | null {
  const profile = useProfile();
  return profile?.user_type === 'ProductUser' ? profile : null;
}

export function useSubjectProfile(): SubjectProfile | null {
  const profile = useProfile();
  return profile?.user_type === 'SubjectUser' ? profile : null;
}

/** Keeps the bootstrapped profile in step after a profile or TOTP change. */
export function replaceProfile(profile: Profile): void {
  const { bootstrap } = getSession();
  if (bootstrap) setSession({ bootstrap: { ...bootstrap, profile } });
}

/** PUT /api/user/ with the current profile plus the changes. */
export async function saveProfile(changes: Partial<ProductProfile> | Partial<SubjectProfile>) {
  const current = getSession().bootstrap?.profile;
  const r = await request<Profile>('PUT', '/api/user/', {
    body: { ...current, ...changes },
    expect: 200,
  });
  if (r.ok) replaceProfile(r.data);
  return r;
}

export const displayName = (p: { first_name: string; last_name: string }) =>
  `${p.first_name} ${p.last_name}`.trim();

export const initials = (p: { first_name: string; last_name: string }) =>
  `${p.first_name.charAt(0)}${p.last_name.charAt(0)}`.toUpperCase() || '?';
