// bench/serve.ts in a child process, for the bench parts that drive the load from their own.
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** Starts bench/serve.ts on `dbUrl` (BENCH_LOAD=1: migrate and load the data set first). */
export function startServeChild(opts: {
  dbUrl: string;
  port: number;
  plainPort: number;
  load: boolean;
}): Promise<ChildProcess> {
  const child = fork(fileURLToPath(new URL('./serve.ts', import.meta.url)), [], {
    // BENCH_SERVER_ARGS: more Node.js flags for the server process (e.g. --cpu-prof), as parts/cluster.ts
    execArgv: [
      ...process.execArgv,
      ...(process.env.BENCH_SERVER_ARGS?.split(' ').filter(Boolean) ?? []),
    ],
    env: {
      ...process.env,
      BENCH_DATABASE_URL: opts.dbUrl,
      BENCH_PORT: String(opts.port),
      BENCH_PLAIN_PORT: String(opts.plainPort),
      BENCH_LOAD: opts.load ? '1' : '0',
      LOG_LEVEL: 'silent',
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.on('message', (m) => {
      if (!m || typeof m !== 'object' || !('type' in m)) return;
      if (m.type === 'log' && 'text' in m) console.log(`  server ${child.pid}: ${String(m.text)}`);
      if (m.type === 'ready') resolve(child);
    });
    child.on('exit', (code) => reject(new Error(`server process exited (${code})`)));
  });
}

/** Stops a server started by startServeChild (SIGTERM, then waits for it to exit); none: nothing. */
export async function stopServeChild(child: ChildProcess | null): Promise<void> {
  if (!child || child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
