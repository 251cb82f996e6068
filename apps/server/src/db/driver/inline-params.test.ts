import { expect, it } from 'vitest';
import { inlineParams } from './inline-params.js';

it('replaces $n by quoted literals', () => {
  expect(
    inlineParams('select * from t where a = $1 and b = $2 limit $3 offset $10', [
      "O'Brien",
      true,
      25,
      null,
      null,
      null,
      null,
      null,
      null,
      0,
    ]),
  ).toBe(`select * from t where a = 'O''Brien' and b = 'true' limit '25' offset '0'`);
  expect(inlineParams('select $1, $2', [null, new Date(Date.UTC(2026, 0, 2))])).toBe(
    `select NULL, '2026-01-02T00:00:00.000Z'`,
  );
  expect(inlineParams('select $1', ['a\\b'])).toBe(`select  E'a\\\\b'`);
});

it('leaves strings, identifiers, dollar quotes, comments and identifiers with $ alone', () => {
  const text = `select '$1', E'\\'$1', "col$1", $$ $1 $$, $tag$ $1 $tag$, a$1 -- $1
  , $1`;
  expect(
    inlineParams(text, [7]),
  ).toBe(`select '$1', E'\\'$1', "col$1", $$ $1 $$, $tag$ $1 $tag$, a$1 -- $1
  , '7'`);
});

it('gives up on what it cannot inline safely', () => {
  expect(inlineParams('select $1', [[1, 2]])).toBeNull();
  expect(inlineParams('select $1', [{ a: 1 }])).toBeNull();
  expect(inlineParams('select $1', [Number.NaN])).toBeNull();
  expect(inlineParams('select $2', [1])).toBeNull();
  expect(inlineParams("select 'open", [])).toBeNull();
  expect(inlineParams('select /* $1 */ $1', [1])).toBeNull();
});
