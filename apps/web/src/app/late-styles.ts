/**
 * Keeps the stylesheets loaded after the first paint (a lazy chunk's, which Vite's loader appends
 * to the head) after the entry's, which the build puts in the body just before #root
 * (vite.config.ts, paintBeforeStyles): Mantine's component CSS relies on its order (Menu's item
 * after UnstyledButton's reset, at the same specificity), so a later stylesheet placed before the
 * entry's lost to it (the account menu's items drawn without their padding). Each one is moved
 * to just before #root, after the entry's, as it is added. Returns the stop function.
 */
export function keepLateStylesAfterEntry(doc: Document = document): () => void {
  const root = doc.getElementById('root');
  if (!root || typeof MutationObserver === 'undefined') return () => undefined;
  const observer = new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) {
        if (node instanceof HTMLLinkElement && node.rel === 'stylesheet') root.before(node);
      }
    }
  });
  observer.observe(doc.head, { childList: true });
  return () => observer.disconnect();
}
