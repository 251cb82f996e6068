import type { RouteName } from '../config/paths';

/**
 * The API reads a signed-in audience's bootstrap makes at once (lib/session/bootstrap.ts), by
 * audience, exactly as it asks for them. The build writes them into route-preloads.json and the
 * server preloads them (`<link rel=preload as=fetch>`) in a protected route's page for a request
 * with a session cookie, so their answers are on their way while the scripts load instead of
 * after check-session answered (issue 28, first loads). check-session itself is preloaded by
 * index.html for every page. bootstrap-preloads.test.ts keeps the lists equal to what the
 * bootstrap asks.
 */
export const BOOTSTRAP_READS: Readonly<Record<'subject', readonly string[]>> = {
  subject: ['/api/user/', '/api/s/content-types/?page_size=100', '/api/s/cases/country-map/'],
};

/**
 * The reads a route's screen makes first, exactly as it asks for them (`:name` is the route's
 * parameter), preloaded the same way for the first pages people open on a phone. e2e
 * budget.test.ts checks on those pages that each is asked for, once (the preload was used).
 */
export const ROUTE_READS: Readonly<Partial<Record<RouteName, readonly string[]>>> = {
  's:dashboard': [
    '/api/lms/s/applications/?page_size=100',
    '/api/s/cases/?page_size=100',
    '/api/s/consents/?page_size=100',
  ],
  's:case-portal': ['/api/s/case-portal/:id/'],
  's:case-portal-resume': ['/api/s/case-portal/:id/'],
  'payment-portal': ['/api/public/payment-portal/:id/'],
};
