import type { ComponentType } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { loadChunk } from './chunk-loading';
import { Guard } from './guard';
import PublicLayout from './layouts/public-layout';
import { AppRoot } from './root';
import { type Audience, ROUTES, type RouteDef } from './route-table';
import { FullPageLoader, RootErrorBoundary } from './status-pages';

type Module = { default: ComponentType };

const lazyComponent = (name: string, load: () => Promise<Module>) => async () => ({
  Component: (await loadChunk(name, load)).default,
});

const toRoute = (def: RouteDef): RouteObject => ({
  path: def.path,
  handle: { name: def.name, title: def.title },
  lazy: lazyComponent(def.name, def.load),
});

type Frame = Audience | 'auth';
const frameOf = (d: RouteDef): Frame => d.frame ?? d.audience;
const routesOf = (frame: Frame) => ROUTES.filter((d) => frameOf(d) === frame).map(toRoute);

const layouts: Record<Frame, () => Promise<Module>> = {
  auth: async () => ({ default: PublicLayout }),
  public: () => import('./layouts/public-portal-layout'),
  product: () => import('./layouts/product-layout'),
  ops: () => import('./layouts/ops-layout'),
  subject: () => import('./layouts/subject-layout'),
};

/** The one route tree: root (session, maintenance) → guard (navigation rules) → layouts. */
export function buildRoutes(): RouteObject[] {
  const frames: Frame[] = ['auth', 'public', 'product', 'ops', 'subject'];
  return [
    {
      id: 'root',
      Component: AppRoot,
      ErrorBoundary: RootErrorBoundary,
      HydrateFallback: FullPageLoader,
      children: [
        {
          Component: Guard,
          children: frames.map((frame) => ({
            id: `layout-${frame}`,
            lazy: lazyComponent(`layout-${frame}`, layouts[frame]),
            children: [
              ...routesOf(frame),
              ...(frame === 'public'
                ? [
                    {
                      path: '*',
                      lazy: lazyComponent('not-found', () => import('./not-found-route')),
                    },
                  ]
                : []),
            ],
          })),
        },
      ],
    },
  ];
}

export function createAppRouter() {
  return createBrowserRouter(buildRoutes());
}
