// `npm run bench:start`: how long `npm start` takes to answer GET /healthz on an existing data
// directory (a restart). One unmeasured start first builds what changed and creates the data
// directory (migrations, demo data); then `npm start` is started and stopped --runs times (default
// 5), each time timed from the spawn to the first 200 from /healthz. Prints every run, best and
// worst; exit code 1 when the worst run is over --limit milliseconds (default 3000). --trace: also
// when each step of every restart ended, in ms from the spawn (KESTREL_START_TRACE=1: the steps of
// scripts/start.mjs and of the server), and the steps' median over the runs.
//
// Environment: PORT (default 18080), DATA_DIR (default a temporary directory, removed at the
// end). DATABASE_URL is ignored: this measures the embedded database.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { root } from './lib.mjs';

const args = Object.fromEntries(
  process.argv.slice(2).map((a) => {
    const [k, v] = a.replace(/^--/, '').split('=');
    return [k, v ?? 'true'];
  }),
);
const RUNS = Math.max(1, Number(args.runs ?? 5));
const LIMIT = Number(args.limit ?? 3000);
const TRACE = args.trace === 'true';
const PORT = Number(process.env.PORT ?? 18080);
const ownDir = !process.env.DATA_DIR;
const DATA_DIR =
  process.env.DATA_DIR ?? join(mkdtempSync(join(tmpdir(), 'kestrel-start-')), 'data');

let current = null;

function gone(pid) {
  try {
    process.kill(-pid, 0);
    return false;
  } catch {
    return true;
  }
}

/** Stops the started `npm start` (its whole process group) and waits until every process ended. */
async function stop() {
  const child = current;
  current = null;
  if (!child) return;
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    return;
  }
  const deadline = Date.now() + 15_000;
  while (!gone(child.pid)) {
    if (Date.now() > deadline) {
      process.kill(-child.pid, 'SIGKILL');
      break;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * CPU milliseconds (user + system, children that ended included) used so far by the processes of
 * the group `pgid`: a figure that depends less on what else the machine runs. Linux only (/proc);
 * null elsewhere.
 */
function groupCpuMs(pgid) {
  let ticks = 0;
  try {
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      let stat;
      try {
        stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      } catch {
        continue; // ended meanwhile
      }
      // Fields after the command name (which may hold spaces), from field 3 (state) on.
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(f[2]) !== pgid) continue;
      ticks += Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
    }
  } catch {
    return null;
  }
  return ticks * 10; // USER_HZ is 100 on Linux
}

/** Starts `npm start`, resolves with the milliseconds until /healthz answered 200 and the CPU used. */
async function startOnce(timeoutMs) {
  let output = '';
  const t0 = performance.now();
  const epoch0 = Date.now();
  const steps = [];
  let pending = '';
  const child = spawn('npm', ['start'], {
    cwd: root,
    detached: true, // its own process group, stopped as a whole
    env: {
      ...process.env,
      DATABASE_URL: '',
      DATA_DIR,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      ...(TRACE ? { KESTREL_START_TRACE: '1' } : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  current = child;
  const keep = (chunk) => {
    output = (output + chunk.toString()).slice(-8_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', (chunk) => {
    keep(chunk);
    pending += chunk.toString();
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      const m = /^start-trace (.+) @(\d+)$/.exec(line);
      if (m) steps.push([m[1], Number(m[2]) - epoch0]);
    }
  });
  while (performance.now() - t0 < timeoutMs) {
    if (child.exitCode !== null)
      throw new Error(`npm start exited (${child.exitCode}):\n${output}`);
    try {
      const res = await fetch(`http://127.0.0.1:${PORT}/healthz`);
      if (res.ok) return { ms: performance.now() - t0, cpuMs: groupCpuMs(child.pid), steps };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`no answer from /healthz within ${timeoutMs} ms:\n${output}`);
}

for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    stop().finally(() => process.exit(130));
  });
}

let exitCode = 0;
try {
  console.log(`› First start (builds what changed; data directory ${DATA_DIR})…`);
  const first = await startOnce(600_000);
  console.log(`  answered after ${Math.round(first.ms)} ms (not counted)`);
  await stop();
  const times = [];
  const cpu = [];
  const traces = [];
  for (let i = 1; i <= RUNS; i++) {
    const { ms, cpuMs, steps } = await startOnce(60_000);
    await stop();
    times.push(ms);
    if (cpuMs !== null) cpu.push(cpuMs);
    const used = cpuMs === null ? '' : ` (${cpuMs} ms of CPU)`;
    console.log(`  restart ${i}: /healthz after ${Math.round(ms)} ms${used}`);
    if (TRACE) {
      traces.push([...steps, ['/healthz answered', ms]]);
      for (const [step, at] of traces.at(-1))
        console.log(`    ${String(Math.round(at)).padStart(6)} ms  ${step}`);
    }
  }
  if (TRACE && traces.length > 1) {
    console.log('\n  median over the runs (ms from the spawn of npm start):');
    const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    for (const [step] of traces[0]) {
      const ats = traces
        .map((t) => t.find(([s]) => s === step)?.[1])
        .filter((x) => x !== undefined);
      console.log(`    ${String(Math.round(median(ats))).padStart(6)} ms  ${step}`);
    }
  }
  const best = Math.min(...times);
  const worst = Math.max(...times);
  const cpuText = cpu.length ? `; CPU ${Math.min(...cpu)}-${Math.max(...cpu)} ms` : '';
  const [load = 0] = loadavg();
  console.log(
    `\nnpm start → /healthz on an existing data directory: best ${Math.round(best)} ms, worst ${Math.round(worst)} ms (${RUNS} runs, limit ${LIMIT} ms${cpuText}; load average ${load.toFixed(1)})`,
  );
  if (worst > LIMIT) exitCode = 1;
} catch (err) {
  console.error(`\nmeasure-start failed: ${err.message}`);
  exitCode = 1;
} finally {
  await stop();
  if (ownDir) rmSync(join(DATA_DIR, '..'), { recursive: true, force: true });
}
process.exit(exitCode);
