import { QueryClient } from '@tanstack/react-query';
import { onSessionReset } from '../lib/session/session-store';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 },
    mutations: { retry: false },
  },
});

// Loaded with the first layout that queries; from then on a new session starts with no cache.
onSessionReset(() => queryClient.clear());
