// `npm start`: install what is missing, build what changed since the last build (the domain
// package, the server, the web app: scripts/build.mjs), then run the compiled server, which
// migrates when the migrations changed, loads demo data on first start and prints the demo logins.
import { build } from './build.mjs';
import { ensureRuntime, must, root, serverEntry, serverNodeFlags, traceStart } from './lib.mjs';

// on the project's Node.js (node_modules/.bin/node), installed first when missing
traceStart('start.mjs process started', performance.timeOrigin);
await ensureRuntime();
traceStart('start.mjs: dependencies and Node.js checked');
build(process.env.SKIP_WEB_BUILD === '1' ? ['domain', 'server'] : []);
traceStart('start.mjs: builds checked');
must(process.execPath, [...serverNodeFlags, serverEntry], {
  cwd: root,
  env: { NODE_ENV: process.env.NODE_ENV ?? 'production' },
});
