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

/** Editable profile fields; `terms_agreed: true` records the agreement now. */
export type ProfileChanges = (Partial<ProductProfile> | Partial<SubjectProfile>) & {
  terms_agreed?: boolean;
};

/** PUT /api/user/ with the changed fields (the server keeps the others). */
export async function saveProfile(changes: ProfileChanges) {
  const r = await request<Profile>('PUT', '/api/user/', { body: changes, expect: 200 });
  if (r.ok) replaceProfile(r.data);
  return r;
}

export const displayName = (p: { first_name: string; last_name: string }) =>
  `${p.first_name} ${p.last_name}`.trim();

export const initials = (p: { first_name: string; last_name: string }) =>
  `${p.first_name.charAt(0)}${p.last_name.charAt(0)}`.toUpperCase() || '?';
