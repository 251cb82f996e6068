import { describe, expect, it } from 'vitest';
import { preloadSection, sectionComponent, sectionLoading } from './section-modules';

// @own-modules: the chunk cache is module state, and this file starts from an empty one (no other
// file in the worker may have opened a section first).

const LAZY = Symbol.for('react.lazy');
const isLazy = (c: unknown) =>
  typeof c === 'object' && c !== null && '$$typeof' in c && c.$$typeof === LAZY;

describe('section chunks', () => {
  it('preloads a section once; once arrived the frame gets the component itself (no Suspense)', async () => {
    expect(isLazy(sectionComponent('review'))).toBe(true);
    const first = preloadSection('review');
    expect(preloadSection('review')).toBe(first);
    expect(sectionLoading('review')).toBe(first);
    await first;
    expect(sectionLoading('review')).toBeNull();
    const component = sectionComponent('review');
    expect(component).not.toBeNull();
    expect(isLazy(component)).toBe(false);
    expect(typeof component).toBe('function');
  });

  it('has Welcome and Done at once, in the page chunk itself (no load, no Suspense)', async () => {
    for (const section of ['welcome', 'done'] as const) {
      const component = sectionComponent(section);
      expect(typeof component, section).toBe('function');
      expect(isLazy(component), section).toBe(false);
      expect(sectionLoading(section)).toBeNull();
      await expect(preloadSection(section)).resolves.toBeUndefined();
      expect(sectionLoading(section)).toBeNull();
    }
  });

  it('does nothing for a name without a section file', async () => {
    await expect(preloadSection('no-such-section')).resolves.toBeUndefined();
    expect(sectionLoading('no-such-section')).toBeNull();
  });
});
