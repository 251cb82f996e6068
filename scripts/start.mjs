// `npm start`: install what is missing, build the domain package and the web app, then run the
// server, which migrates, loads demo data on first start and prints the demo logins.
import { ensureDependencies, must, root, serverNodeFlags } from './lib.mjs';

ensureDependencies();
must('npm', ['run', 'build', '-w', '@kestrel/domain']);
if (process.env.SKIP_WEB_BUILD !== '1') must('npm', ['run', 'build', '-w', '@kestrel/web']);
must('node', [...serverNodeFlags, '--import', 'tsx', 'apps/server/src/main.ts'], {
  cwd: root,
  env: { NODE_ENV: process.env.NODE_ENV ?? 'production' },
});
