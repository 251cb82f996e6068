import { useCallback, useEffect, useState } from 'react';
import { loadChunk } from '../chunk-loading';

type Menus = typeof import('./menus');

let loading: Promise<Menus> | undefined;
let loaded: Menus | undefined;

/** Loads the header's menus (Mantine's Menu with its popover and floating-ui), once. */
export function loadMenus(): Promise<Menus> {
  loading ??= loadChunk('menus', () => import('./menus')).then(
    (menus) => {
      loaded = menus;
      return menus;
    },
    (error: unknown) => {
      // Asked for again on the next press.
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/**
 * The header's menus, kept out of a first visit's paint (issue 28, first loads on a phone: the
 * popover and floating-ui were 34 KB of a subject's dashboard): asked for once the browser is
 * idle after the first paint, or at once when a menu button is pressed before that (`load`).
 * Until they are here the layouts show the same buttons without their menus.
 */
export function useMenus(): { menus: Menus | undefined; load: () => void } {
  const [menus, setMenus] = useState(loaded);
  const load = useCallback(() => {
    loadMenus().then(setMenus, () => undefined);
  }, []);
  useEffect(() => {
    if (menus) return;
    let live = true;
    const start = () => {
      loadMenus().then(
        (m) => {
          if (live) setMenus(m);
        },
        () => undefined,
      );
    };
    const idle = globalThis.requestIdleCallback;
    if (idle) {
      const handle = idle(start, { timeout: 2000 });
      return () => {
        live = false;
        globalThis.cancelIdleCallback?.(handle);
      };
    }
    const timer = setTimeout(start, 500);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [menus]);
  return { menus, load };
}
