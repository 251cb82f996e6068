import { useSyncExternalStore } from 'react';
import type { SessionState, UserType } from './types';

const STORAGE_KEY = 'kestrel.session';

function readPersisted(): UserType | null {
  try {
    const raw = globalThis.localStorage?.getItem(STORAGE_KEY);
    if (!raw) return null;
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed === 'object' && parsed !== null && 'userType' in parsed) {
      const t = parsed.userType;
      return t === 'ProductUser' || t === 'SubjectUser' ? t : null;
    }
  } catch {
    // unreadable storage counts as nothing persisted
  }
  return null;
}

function writePersisted(userType: UserType | null): void {
  try {
    if (userType) globalThis.localStorage?.setItem(STORAGE_KEY, JSON.stringify({ userType }));
    else globalThis.localStorage?.removeItem(STORAGE_KEY);
  } catch {
    // storage may be unavailable (private mode); the session still works
  }
}

export function initialSessionState(): SessionState {
  const persisted = readPersisted();
  return {
    status: persisted ? 'persisted-locally' : 'unknown',
    userType: persisted,
    sessionCustomer: null,
    activeFlags: 0,
    maintenanceWindow: null,
    down: false,
    bootstrap: null,
  };
}

let state: SessionState = initialSessionState();
const listeners = new Set<() => void>();

export function getSession(): SessionState {
  return state;
}

/** Replaces part of the state; the logged-in user type is persisted locally. */
export function setSession(patch: Partial<SessionState>): void {
  state = { ...state, ...patch };
  if ('status' in patch || 'userType' in patch) {
    writePersisted(state.status === 'logged-in' ? state.userType : null);
  }
  for (const listener of listeners) listener();
}

/** Test helper: back to a fresh state (re-reading local storage). */
export function resetSession(): void {
  state = initialSessionState();
  for (const listener of listeners) listener();
}

export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useSession(): SessionState {
  return useSyncExternalStore(subscribeSession, getSession, getSession);
}

const resetListeners = new Set<() => void>();

/** Called whenever the user or the customer changes: caches of the old session must go. */
export function onSessionReset(listener: () => void): () => void {
  resetListeners.add(listener);
  return () => resetListeners.delete(listener);
}

export function emitSessionReset(): void {
  for (const listener of resetListeners) listener();
}
