import { PGlite } from '@electric-sql/pglite';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { inlineParams } from './inline-params.js';

// Property tests of the SQL literal inliner against a real PostgreSQL (PGlite): whatever the
// values and whatever quoting surrounds the placeholders, the inlined text means exactly what
// the query with bind parameters means. A literal that escaped its quotes would change the
// result (or fail to parse), so these catch injection as well as mistakes.

let db: PGlite;
beforeAll(async () => {
  db = new PGlite();
  await db.waitReady;
}, 60_000);
afterAll(() => db.close());

/** Text PostgreSQL accepts: any Unicode except NUL (which no text value may hold). */
const pgText = fc.string({ unit: 'grapheme', maxLength: 40 }).map((s) => s.replaceAll('\0', ''));
const tricky = fc.constantFrom("'", "''", '\\', "\\'", '$1', '$$', '$a$', '"', '--', '/*', '\n');
const textValue = fc.oneof(
  pgText,
  fc.array(fc.oneof(tricky, pgText), { maxLength: 6 }).map((a) => a.join('')),
);
const value = fc.oneof(
  textValue,
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
  fc.date({ noInvalidDate: true, min: new Date(0), max: new Date(Date.UTC(9999, 0, 1)) }),
);

const asText = (v: unknown) => (v instanceof Date ? v.toISOString() : v);

async function both(text: string, values: unknown[]) {
  const inlined = inlineParams(text, values);
  expect(inlined).not.toBeNull();
  const bound = await db.query(text, values.map(asText));
  const literal = await db.query(inlined ?? '');
  return { bound: bound.rows, literal: literal.rows };
}

it('a value inlined reads back exactly as the bound parameter', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(value, { minLength: 1, maxLength: 5 }), async (values) => {
      const cols = values.map((_, i) => `$${i + 1}::text as c${i}`).join(', ');
      const r = await both(`select ${cols}`, values);
      expect(r.literal).toEqual(r.bound);
    }),
    { numRuns: 300 },
  );
});

it('placeholders inside strings, identifiers, dollar quotes and comments are left alone', async () => {
  // A query built from pieces that look like placeholders but are not, around real ones.
  const decoy = fc.constantFrom(
    "'$1'",
    "'it''s $2'",
    "E'\\'$1'",
    '$$ $1 $$',
    '$tag$ $2 $tag$',
    '"col$1"',
  );
  await fc.assert(
    fc.asyncProperty(
      fc.array(decoy, { minLength: 1, maxLength: 4 }),
      textValue,
      textValue,
      fc.boolean(),
      async (decoys, a, b, comment) => {
        const parts = decoys.map((d, i) =>
          d.startsWith('"') ? `1 as ${d}` : `${d}::text as d${i}`,
        );
        const text = `select $1::text as a, ${parts.join(', ')}, $2::text as b${
          comment ? ' -- $1 $2' : ''
        }`;
        const r = await both(text, [a, b]);
        expect(r.literal).toEqual(r.bound);
      },
    ),
    { numRuns: 200 },
  );
});

it('refuses, rather than guesses, what it cannot inline', () => {
  fc.assert(
    fc.property(
      fc.oneof(
        fc.array(fc.integer(), { minLength: 1 }),
        fc.object(),
        fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, new Date(Number.NaN)),
      ),
      (v) => {
        expect(inlineParams('select $1', [v])).toBeNull();
      },
    ),
  );
});
