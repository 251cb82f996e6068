import { MantineProvider } from '@mantine/core';
import { renderToString } from 'react-dom/server';
import { MemoryRouter, Route, Routes } from 'react-router';
import LoginPage from '../features/auth/login-page';
import { BRANDS, currentBrand } from './brands';
import { PRERENDER_STYLE, PRERENDERED } from './first-paint';
import PublicLayout from './layouts/public-layout';
import { cssVariablesResolver, themeFor } from './theme';

/**
 * The sign-in page as the app first renders it for a visitor, in the page's brand, light:
 * rendered at build for each brand (vite.config.ts, prerenderPages) into
 * dist/.vite/prerender.json; the server puts the brand's in the HTML of /login and of a
 * signed-out deep link (apps/server web-static.ts), so the first paint of the most common first visit is the page
 * itself, not a loader followed by the scripts (issue 28). Until the app shows its own first
 * screen (first-paint.ts, releasePrerenderWhenShown) it lies over the app, inert: nothing typed
 * or pressed in it can be lost or submit the form without the app, and its inputs are read-only.
 */
export function prerenderSignIn(): string {
  const markup = renderToString(
    <MantineProvider
      theme={themeFor(currentBrand)}
      cssVariablesResolver={cssVariablesResolver}
      defaultColorScheme="light"
    >
      <MemoryRouter initialEntries={['/login']}>
        <Routes>
          <Route element={<PublicLayout />}>
            <Route path="/login" element={<LoginPage />} />
          </Route>
        </Routes>
      </MemoryRouter>
    </MantineProvider>,
  );
  return prerenderedFrame('login', markup);
}

/** Rendered markup in the frame the server puts before #root (inputs read-only, all inert). */
export function prerenderedFrame(name: string, markup: string): string {
  const readOnly = markup.replace(/<input(?![^>]*\sreadonly)/g, '<input readonly=""');
  return `<div id="boot-loader" ${PRERENDERED}="${name}" inert="" aria-busy="true"><style>${PRERENDER_STYLE}</style>${readOnly}</div>`;
}

/**
 * The brands to pre-render, each with its hosts; the first is also the one of unknown hosts
 * (brandForHost). The build loads this module once per brand with the page's host name set to
 * the brand's first host, so `currentBrand` is that brand.
 */
export function prerenderBrands(): {
  id: string;
  name: string;
  hosts: string[];
  fallback: boolean;
}[] {
  return BRANDS.map((b, i) => ({ id: b.id, name: b.name, hosts: [...b.hosts], fallback: i === 0 }));
}
