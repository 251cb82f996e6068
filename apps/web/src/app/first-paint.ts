/**
 * Subject routes that paint with the frame's CSS alone (styles-frame.ts): every other subject
 * route loads the rest of the signed-in CSS (styles-app.ts) with its screen (router.tsx) and
 * preloads it on a first visit (vite.config.ts, route preloads). Issue 28: the subject's
 * dashboard is the first thing a subject sees on a phone.
 */
export const FRAME_STYLED_ROUTES: readonly string[] = ['s:dashboard'];

/** The attribute that marks the first paint as a pre-rendered page (prerender.tsx), not the loader. */
export const PRERENDERED = 'data-prerendered';

/**
 * A pre-rendered page lies over #root (where the app renders its loader meanwhile) until the app
 * shows a screen of its own; on the body's background, so nothing of the app shows through.
 */
export const PRERENDER_STYLE = `#boot-loader[${PRERENDERED}]{position:fixed;inset:0;z-index:1000;overflow:auto;background:var(--mantine-color-body)}`;

/** The loader index.html paints before the scripts ran: it goes at the app's first render. */
export function removeBootLoader(doc: Document = document): void {
  doc.querySelector(`#boot-loader:not([${PRERENDERED}])`)?.remove();
}

/**
 * Removes a pre-rendered first paint once the app shows a screen of its own in `root`: its first
 * element other than a stylesheet (MantineProvider's) that is not the full-page loader
 * (aria-busy). Checked on every change to the root, before the browser paints it (a mutation
 * observer runs as a microtask), so the page is never shown twice or not at all.
 */
export function releasePrerenderWhenShown(root: HTMLElement, doc: Document = document): void {
  const pre = doc.querySelector(`#boot-loader[${PRERENDERED}]`);
  if (!pre) return;
  const shown = () => {
    const first = [...root.children].find((el) => el.tagName !== 'STYLE');
    return first !== undefined && first.getAttribute('aria-busy') !== 'true';
  };
  const observer = new MutationObserver(() => {
    if (!shown()) return;
    observer.disconnect();
    pre.remove();
  });
  observer.observe(root, { childList: true, subtree: true, attributes: true });
}
