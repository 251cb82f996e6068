import { QueryClientProvider } from '@tanstack/react-query';
import { queryClient } from '../query-client';

/** TanStack Query for the layouts whose screens fetch (kept off the sign-in pages). */
export function WithQueries({ children }: { children: React.ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
