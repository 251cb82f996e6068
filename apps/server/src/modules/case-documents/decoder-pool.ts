import { fork } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  DECODER_CONCURRENCY,
  DECODER_LIMITS,
  type DecoderLimits,
  type DecoderOutcome,
  type DecoderReply,
  type DecoderRequest,
  type DecoderTask,
} from './decoder-limits.js';

// Compiled, the child is decoder-child.js beside this file; from the sources (tests, development)
// decoder-child-source.mjs runs the .ts file through tsx, as the server itself is run.
const CHILD = fileURLToPath(
  new URL(
    import.meta.url.endsWith('.ts') ? './decoder-child-source.mjs' : './decoder-child.js',
    import.meta.url,
  ),
);

const PAGE_SIZE = 4096;
/** A process's resident memory from /proc (Linux); null where there is none. */
function rssOf(pid: number): number | null {
  try {
    const pages = Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]);
    return Number.isFinite(pages) ? pages * PAGE_SIZE : null;
  } catch {
    return null;
  }
}

/** Runs one task in its own decoder process, killing it past the time or memory allowed. */
function runInChild(task: DecoderTask, limits: DecoderLimits): Promise<DecoderOutcome> {
  return new Promise((resolve) => {
    const child = fork(CHILD, [], {
      execArgv: [`--max-old-space-size=${limits.maxHeapMb}`],
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
      serialization: 'json',
    });
    let peak = 0;
    let settled = false;
    const finish = (outcome: DecoderOutcome) => {
      if (settled) return;
      settled = true;
      clearInterval(watch);
      clearTimeout(timer);
      if (child.exitCode === null) child.kill('SIGKILL');
      resolve(outcome);
    };
    const kill = (reason: 'timeout' | 'memory') =>
      finish({ status: 'killed', reason, peakRssBytes: peak });
    const watch = setInterval(() => {
      const rss = child.pid === undefined ? null : rssOf(child.pid);
      if (rss === null) return;
      peak = Math.max(peak, rss);
      if (rss > limits.maxRssBytes) kill('memory');
    }, 10);
    const timer = setTimeout(() => kill('timeout'), limits.timeoutMs);
    child.once('message', (m: DecoderReply) => {
      peak = Math.max(peak, m.peakRssBytes);
      finish(
        m.ok
          ? { status: 'done', peakRssBytes: peak }
          : { status: 'refused', reason: m.reason, peakRssBytes: peak },
      );
    });
    child.once('error', () => finish({ status: 'killed', reason: 'crashed', peakRssBytes: peak }));
    child.once('exit', () => finish({ status: 'killed', reason: 'crashed', peakRssBytes: peak }));
    const request: DecoderRequest = { task, limits };
    child.send(request);
  });
}

/** Every decode's outcome ('outcome', task, outcome), for the bench and logs to watch. */
export const decoderOutcomes = new EventEmitter<{ outcome: [DecoderTask, DecoderOutcome] }>();

let running = 0;
const waiting: (() => void)[] = [];

/**
 * Decodes uploaded content (a thumbnail, a HEIC conversion) in a decoder process of its own,
 * at most DECODER_CONCURRENCY at once per server process (the rest queue, first come first
 * served), each bounded in time and memory and gone when it is done.
 */
export async function runDecoder(
  task: DecoderTask,
  limits: DecoderLimits = DECODER_LIMITS,
): Promise<DecoderOutcome> {
  if (running >= DECODER_CONCURRENCY) await new Promise<void>((r) => waiting.push(r));
  running++;
  try {
    const outcome = await runInChild(task, limits);
    decoderOutcomes.emit('outcome', task, outcome);
    return outcome;
  } finally {
    running--;
    waiting.shift()?.();
  }
}
