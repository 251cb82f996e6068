import type { PortalSection } from '@kestrel/domain';
import { type ComponentType, type LazyExoticComponent, lazy } from 'react';
import { loadChunk } from '../../app/chunk-loading';
import type { PortalSectionModule, PortalSectionProps } from './section-contract';

/**
 * The sections a first visit opens most (a new case's Welcome, a submitted case's Done), a few
 * hundred bytes each: in the portal page's own chunk, so those visits paint without waiting for
 * one more request (issue 28, first loads on a phone).
 */
const bundled = import.meta.glob<PortalSectionModule>(
  ['./sections/welcome.tsx', './sections/done.tsx'],
  { eager: true },
);

/**
 * Every other section file, found by name (`sections/<section>.tsx`): each one is a chunk of its
 * own, loaded only when the person opens it (a failed load says 'Loading chunk {name} failed').
 */
const modules = import.meta.glob<PortalSectionModule>([
  './sections/*.tsx',
  '!./sections/*.test.tsx',
  '!./sections/welcome.tsx',
  '!./sections/done.tsx',
]);

type SectionView = ComponentType<PortalSectionProps>;

const lazies = new Map<string, LazyExoticComponent<SectionView>>();
/** Sections whose chunk has arrived: rendered at once, without a Suspense fallback in between. */
const loaded = new Map<string, SectionView>(
  Object.entries(bundled).map(([file, module]) => [
    file.replace(/^\.\/sections\/(.*)\.tsx$/, '$1'),
    module.default,
  ]),
);
/** Loads under way (started ahead by preloadSection). */
const pending = new Map<string, Promise<void>>();

/**
 * The section's component, or null when no file exists for it yet. Once its chunk has arrived
 * (preloadSection) it is the component itself, so the frame paints it in one go (no skeleton
 * flashing in and out, no layout shift).
 */
export function sectionComponent(
  section: PortalSection,
): SectionView | LazyExoticComponent<SectionView> | null {
  const ready = loaded.get(section);
  if (ready) return ready;
  const cached = lazies.get(section);
  if (cached) return cached;
  const load = modules[`./sections/${section}.tsx`];
  if (!load) return null;
  const component = lazy(() => loadChunk(`portal-${section}`, load));
  lazies.set(section, component);
  return component;
}

/**
 * Starts loading a section's chunk ahead: the requested one in parallel with the portal payload,
 * the next one while the person fills this one. Any string is accepted (the URL's section);
 * unknown names do nothing. The promise settles when the load ends, never rejects: a failed load
 * is reported by the lazy component when the section renders.
 */
export function preloadSection(section: string): Promise<void> {
  if (loaded.has(section)) return Promise.resolve();
  const running = pending.get(section);
  if (running) return running;
  const load = modules[`./sections/${section}.tsx`];
  if (!load) return Promise.resolve();
  const started = load().then(
    (module) => {
      loaded.set(section, module.default);
      pending.delete(section);
    },
    () => {
      pending.delete(section);
    },
  );
  pending.set(section, started);
  return started;
}

/** The load of the section's chunk still under way, or null (loaded, failed, or no file). */
export function sectionLoading(section: string): Promise<void> | null {
  return pending.get(section) ?? null;
}
