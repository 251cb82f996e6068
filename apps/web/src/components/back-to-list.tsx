import { Anchor } from '@mantine/core';
import { useEffect } from 'react';
import { Link } from 'react-router';

const key = (path: string) => `kestrel:list-search:${path}`;

function read(path: string): string {
  try {
    return sessionStorage.getItem(key(path)) ?? '';
  } catch {
    return '';
  }
}

/**
 * Remembers a list's search params (filters, page) for this tab, so a link back to the list
 * from one of its items returns to the same view, even after a reload of the item.
 */
export function useRememberListSearch(path: string, search: string) {
  useEffect(() => {
    try {
      sessionStorage.setItem(key(path), search);
    } catch {
      // Storage may be unavailable (private mode): the link then goes to the plain list.
    }
  }, [path, search]);
}

/** '← All cases': back to the list as it was left (see `useRememberListSearch`). */
export function BackToList({ path, label }: { path: string; label: string }) {
  return (
    <Anchor component={Link} to={`${path}${read(path)}`} size="sm">
      ← {label}
    </Anchor>
  );
}
