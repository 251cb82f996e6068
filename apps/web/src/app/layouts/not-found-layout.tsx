import { lazy } from 'react';
import { useLocation } from 'react-router';
import { useSession } from '../../lib/session/session-store';

const ProductLayout = lazy(() => import('./product-layout'));
const OpsLayout = lazy(() => import('./ops-layout'));
const SubjectLayout = lazy(() => import('./subject-layout'));
const PublicPortalLayout = lazy(() => import('./public-portal-layout'));

/**
 * The frame of the catch-all 404: a signed-in user keeps their own app frame (navigation, user
 * menu), so a mistyped address is one click from their work; a visitor sees the public frame.
 */
export default function NotFoundLayout() {
  const { status, userType, bootstrap } = useSession();
  const { pathname } = useLocation();
  if (status !== 'logged-in' || !bootstrap) return <PublicPortalLayout />;
  if (userType === 'SubjectUser') return <SubjectLayout />;
  const profile = bootstrap.profile;
  const isOps = profile.user_type === 'ProductUser' && profile.is_ops;
  return isOps && pathname.startsWith('/ops/') ? <OpsLayout /> : <ProductLayout />;
}
