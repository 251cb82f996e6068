import { readdirSync, readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import {
  ACTIVITY_KIND_CODES,
  ACTIVITY_KINDS,
  type ActivityKindCode,
  PORTAL_ACTIVITY_SECTIONS,
  RESULT_AUDIENCES,
} from '@kestrel/domain';
import { describe, expect, it } from 'vitest';
import { panelsOf, RESULT_PANELS_BY_KIND, resultPanelFor } from './registry';

/*
 * "A new kind is its own folders and one line per registry" (decision 018, issue 27): the web's
 * registries agree with the domain's activity-kind registry, and the web's shared files name no
 * kind (the server's modules/checks/registry.test.ts does the same for the engine).
 */

/**
 * The kinds whose panels are still being written: they have no entry in RESULT_PANELS_BY_KIND
 * yet. This list only shrinks: adding a kind's line to the registry, delete its code here.
 */
const PENDING_PANELS: readonly ActivityKindCode[] = [];

/** apps/web/src/, with a trailing slash. */
const src = `${resolve(import.meta.dirname, '../..')}/`;

/** Every source file of the web app (apps/web/src), relative to it, tests and test data aside. */
function sourceFiles(dir = src): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = `${dir}${e.name}`;
    if (e.isDirectory()) return sourceFiles(`${path}/`);
    return /\.tsx?$/.test(e.name) ? [relative(src, path)] : [];
  });
}
const isTestSupport = (path: string) =>
  /\.test\.tsx?$/.test(path) ||
  /(^|\/)(fixtures|test-kit[^/]*|[^/]*-test-kit[^/]*)\.tsx?$/.test(path) ||
  path.startsWith('test/');

/** A kind's own names: its code, its result panel, its portal section. */
const OWN_NAMES = [
  ...new Set(
    Object.values(ACTIVITY_KINDS).flatMap((k) => [
      k.code,
      k.resultPanel,
      ...(k.portalSection ? [k.portalSection] : []),
    ]),
  ),
];
/** A kind's own file: its name, or a folder on its path, starts with one of a kind's own names. */
const isKindsOwnFile = (path: string) =>
  path.split('/').some((part) => OWN_NAMES.some((name) => part.startsWith(name)));

/**
 * The web's registries, which name kinds by design (one line per kind), and the files that name
 * a kind for another reason, each with why. Adding to this list needs a reason a reviewer accepts.
 */
const NAMES_KINDS_BY_DESIGN: Record<string, string> = {
  'features/results/registry.tsx': 'the result-panel registry',
  'features/portal/sections/review.tsx': 'the Review section: each section’s summary',
  'features/portal/summaries.tsx': 'the answers of each section, shown on Review (consent kinds)',
  'features/portal/sections/dbs-application/dbs-application-section.tsx':
    'the criminal-record family’s shared application (its own folder)',
  'features/documents/collectors.ts': 'the document collectors a case’s kinds ask for',
  'api/subject-consents.ts': 'the DVLA mandate (consent kind driver-data) is renewed',
  'features/subject/dvla-reconsent-page.tsx': 'the DVLA mandate (consent kind driver-data)',
};

const KIND_CODES = ACTIVITY_KIND_CODES as readonly string[];
/** The kind codes a file names, quoted. */
function kindsNamed(text: string): string[] {
  const named = new Set<string>();
  for (const m of text.matchAll(/['"`]([a-z][a-z-]*)['"`]/g)) {
    const word = m[1];
    if (word !== undefined && KIND_CODES.includes(word)) named.add(word);
  }
  return [...named];
}

describe('the web result-panel registry', () => {
  it('has an entry for every kind of the domain, or lists it as pending', () => {
    const missing = ACTIVITY_KIND_CODES.filter(
      (code) => !RESULT_PANELS_BY_KIND[code] && !PENDING_PANELS.includes(code),
    );
    expect(missing, 'kinds without a result panel (add their line to registry.tsx)').toEqual([]);
    const done = PENDING_PANELS.filter((code) => RESULT_PANELS_BY_KIND[code] !== undefined);
    expect(done, 'kinds with a panel still listed as pending (delete them here)').toEqual([]);
    expect(new Set(PENDING_PANELS).size).toBe(PENDING_PANELS.length);
  });

  it.each(ACTIVITY_KIND_CODES.filter((code) => !PENDING_PANELS.includes(code)))(
    'gives %s the views and ops form the domain says it has',
    (code) => {
      const kind = ACTIVITY_KINDS[code];
      const entry = panelsOf(code);
      expect(entry).not.toBeNull();
      const audiences: readonly string[] = kind.audiences;
      expect(
        entry?.subject !== undefined,
        'a subject view exactly when the domain names subject',
      ).toBe(audiences.includes('subject'));
      expect(entry?.opsForm !== undefined, 'an ops form exactly when the domain says opsForm').toBe(
        kind.opsForm,
      );
      for (const audience of RESULT_AUDIENCES) {
        expect(resultPanelFor(code, audience) !== null, audience).toBe(
          audiences.includes(audience),
        );
      }
    },
  );

  it('shows nothing for a code outside the domain, or a pending kind', () => {
    expect(panelsOf('nonsense')).toBeNull();
    expect(panelsOf('toString')).toBeNull();
    expect(resultPanelFor('nonsense', 'customer')).toBeNull();
    for (const code of PENDING_PANELS) expect(resultPanelFor(code, 'subject')).toBeNull();
  });

  it('keys subject views off the same entry (the subject sees the restricted panel)', () => {
    const enhanced = RESULT_PANELS_BY_KIND['dbs-enhanced'];
    expect(enhanced?.subject).toBe('same');
    expect(resultPanelFor('dbs-enhanced', 'subject')).toBe(enhanced?.panel);
    expect(resultPanelFor('dbs-enhanced', 'ops')).toBe(enhanced?.panel);
  });
});

describe('the web names kinds only in its registries and the kinds’ own files', () => {
  const files = sourceFiles().filter((f) => !isTestSupport(f));

  it('finds the web’s source files', () => {
    expect(files).toContain('features/results/activity-result.tsx');
    expect(files).toContain('features/subject/result-slot.tsx');
  });

  it('names no kind in a shared file', () => {
    const offenders = files
      .filter((f) => !isKindsOwnFile(f) && !Object.hasOwn(NAMES_KINDS_BY_DESIGN, f))
      .map((f) => [f, kindsNamed(readFileSync(`${src}${f}`, 'utf8'))] as const)
      .filter(([, named]) => named.length > 0);
    expect(offenders).toEqual([]);
  });

  it('keeps its by-design list honest (each file exists and names a kind)', () => {
    for (const f of Object.keys(NAMES_KINDS_BY_DESIGN)) {
      expect(files, f).toContain(f);
      expect(kindsNamed(readFileSync(`${src}${f}`, 'utf8')), f).not.toEqual([]);
    }
  });

  it('would catch a shared file that names a kind', () => {
    expect(kindsNamed("if (code === 'dbs-enhanced') return <Form />")).toEqual(['dbs-enhanced']);
    expect(kindsNamed('const panel = "rtw";')).toEqual(['rtw']);
    expect(kindsNamed("audience === 'ops'")).toEqual([]);
    expect(isKindsOwnFile('features/results/licence-check-panel.tsx')).toBe(true);
    expect(isKindsOwnFile('features/results/activity-result.tsx')).toBe(false);
  });
});

describe('the portal section registry (a file per section)', () => {
  const sections = readdirSync(`${src}features/portal/sections`)
    .filter((f) => f.endsWith('.tsx') && !f.endsWith('.test.tsx'))
    .map((f) => f.replace(/\.tsx$/, ''));

  it('has a section file for every kind’s portal section, and no file for another name', () => {
    const expected = [...PORTAL_ACTIVITY_SECTIONS, 'welcome', 'review', 'done'];
    expect([...sections].sort()).toEqual([...expected].sort());
  });
});
