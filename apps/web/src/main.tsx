import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { applyBrandToDocument, currentBrand } from './app/brands';
import { releasePrerenderWhenShown } from './app/first-paint';
import { initialSessionCheck } from './lib/session/session-actions';

applyBrandToDocument(currentBrand);
// Ask the server about the session while the first screen's code is still loading.
void initialSessionCheck();

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root');
releasePrerenderWhenShown(container);
const root = createRoot(container);
// A transition lets React yield while it renders the first screen (shorter main-thread tasks).
startTransition(() => {
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
