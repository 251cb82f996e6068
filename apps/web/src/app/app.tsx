import './styles';
import { MantineProvider } from '@mantine/core';
import { lazy, Suspense, useEffect, useLayoutEffect, useState } from 'react';
import { RouterProvider } from 'react-router';
import { onFirstNotification } from '../lib/notify';
import { currentBrand } from './brands';
import { removeBootLoader } from './first-paint';
import { keepLateStylesAfterEntry } from './late-styles';
import { createAppRouter } from './router';
import { cssVariablesResolver, themeFor } from './theme';

const theme = themeFor(currentBrand);

// Before any lazy chunk asks for its stylesheet.
keepLateStylesAfterEntry();

// The toast container loads with the first toast, keeping it off the sign-in page's first visit.
const NotificationsHost = lazy(() => import('./notifications-host'));

function Toasts() {
  const [wanted, setWanted] = useState(false);
  useEffect(() => onFirstNotification(() => setWanted(true)), []);
  return wanted ? (
    <Suspense fallback={null}>
      <NotificationsHost />
    </Suspense>
  ) : null;
}

export function App() {
  const [router] = useState(createAppRouter);
  // The loader index.html paints before the scripts ran goes at the first render (a pre-rendered
  // page stays until the app shows a screen of its own: main.tsx).
  useLayoutEffect(() => removeBootLoader(), []);
  return (
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      defaultColorScheme="light"
    >
      <Toasts />
      <RouterProvider router={router} />
    </MantineProvider>
  );
}
