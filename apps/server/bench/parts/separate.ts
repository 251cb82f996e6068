// `npm run bench -- --only=separate` (issue 28): the API-throughput targets with the load from a
// separate process, one server process: parts/cluster.ts with `--workers=1`.
process.argv.push('--workers=1');
await import('./cluster.js');
