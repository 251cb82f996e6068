// Regenerates src/endorsement-codes.ts from data/endorsement-codes.json (run after editing the
// JSON: `node scripts/generate-endorsement-codes.mjs`). The TS copy is what the build ships.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const here = new URL('..', import.meta.url);
const data = JSON.parse(readFileSync(new URL('data/endorsement-codes.json', here), 'utf8'));
const rows = data.codes.map((c) => {
  const row = {
    code: c.code,
    group: c.group,
    description: c.description,
    points: c.points ?? null,
    years: c.years,
    counted_from: c.counted_from,
  };
  return `  ${JSON.stringify(row)},`;
});
const out = `// Generated from data/endorsement-codes.json by scripts/generate-endorsement-codes.mjs.
// Do not edit by hand. Sources and caveats are in the JSON's source_note.
import type { EndorsementCodeEntry } from './endorsement-types.js';

export const ENDORSEMENT_CODES: readonly EndorsementCodeEntry[] = [
${rows.join('\n')}
];
`;
const target = fileURLToPath(new URL('src/endorsement-codes.ts', here));
writeFileSync(target, out);
execFileSync('npx', ['biome', 'format', '--write', target], { stdio: 'inherit' });
console.log(`wrote ${data.codes.length} codes`);
