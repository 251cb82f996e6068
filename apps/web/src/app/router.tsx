import { type ComponentType, lazy } from 'react';
import { createBrowserRouter, type NonIndexRouteObject, type RouteObject } from 'react-router';
import { loadChunk } from './chunk-loading';
import { FRAME_STYLED_ROUTES } from './first-paint';
import { Guard, type Preloadable } from './guard';
import BareLayout from './layouts/bare-layout';
import PublicLayout from './layouts/public-layout';
import { AppRoot } from './root';
import { type Audience, ROUTES, type RouteDef } from './route-table';
import { FullPageLoader, RootErrorBoundary } from './status-pages';

type Module = { default: ComponentType };

/**
 * A layout or screen whose code loads when it first renders, not when the router matches it:
 * the guard (eager) decides the navigation rules first, so a visitor who is sent to sign in
 * never downloads the protected layout (react-router's `lazy` would fetch every matched route's
 * code before any component, the guard included, could run). The guard calls `preload` on every
 * matched route it allows, so a layout and its screen still load in parallel.
 */
function lazyComponent(name: string, load: () => Promise<Module>) {
  let loading: Promise<Module> | undefined;
  const preload = () => {
    loading ??= loadChunk(name, load);
    return loading;
  };
  return { Component: lazy(preload), handle: { preload } satisfies Preloadable };
}

/**
 * A subject screen other than those that paint with the frame's CSS (first-paint.ts) loads with
 * the rest of the signed-in CSS, which the subject layout leaves for after the first paint.
 */
const withAppStyles = (load: () => Promise<Module>) => () =>
  Promise.all([import('./styles-app'), load()]).then(([, screen]) => screen);

const toRoute = (def: RouteDef): RouteObject => {
  const load =
    frameOf(def) === 'subject' && !FRAME_STYLED_ROUTES.includes(def.name)
      ? withAppStyles(def.load)
      : def.load;
  const { Component, handle } = lazyComponent(def.name, load);
  return { path: def.path, handle: { name: def.name, title: def.title, ...handle }, Component };
};

type Frame = Audience | 'auth' | 'bare';
const frameOf = (d: RouteDef): Frame => d.frame ?? d.audience;
const routesOf = (frame: Frame) => ROUTES.filter((d) => frameOf(d) === frame).map(toRoute);

const layouts: Record<Exclude<Frame, 'auth' | 'bare'>, () => Promise<Module>> = {
  public: () => import('./layouts/public-portal-layout'),
  product: () => import('./layouts/product-layout'),
  ops: () => import('./layouts/ops-layout'),
  subject: () => import('./layouts/subject-layout'),
};

const layoutRoute = (frame: Frame): NonIndexRouteObject =>
  frame === 'auth'
    ? { id: 'layout-auth', Component: PublicLayout }
    : frame === 'bare'
      ? { id: 'layout-bare', Component: BareLayout }
      : { id: `layout-${frame}`, ...lazyComponent(`layout-${frame}`, layouts[frame]) };

/** The one route tree: root (session, maintenance) → guard (navigation rules) → layouts. */
export function buildRoutes(): RouteObject[] {
  const frames: Frame[] = ['auth', 'bare', 'public', 'product', 'ops', 'subject'];
  const notFound = lazyComponent('not-found', () => import('./not-found-route'));
  const notFoundFrame = lazyComponent(
    'layout-not-found',
    () => import('./layouts/not-found-layout'),
  );
  return [
    {
      id: 'root',
      Component: AppRoot,
      ErrorBoundary: RootErrorBoundary,
      HydrateFallback: FullPageLoader,
      children: [
        {
          Component: Guard,
          children: [
            ...frames.map((frame) => ({ ...layoutRoute(frame), children: routesOf(frame) })),
            { id: 'layout-not-found', ...notFoundFrame, children: [{ path: '*', ...notFound }] },
          ],
        },
      ],
    },
  ];
}

export function createAppRouter() {
  return createBrowserRouter(buildRoutes());
}
