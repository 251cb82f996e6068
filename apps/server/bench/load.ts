// The load side of `npm run bench`, run inside the server's own process (see README): autocannon
// at 50 connections against the app and against a bare route of the same app.
import { readFileSync } from 'node:fs';
import autocannon, { type Client, type Result } from 'autocannon';

export const CONNECTIONS = 50;

export interface Figure {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  total: number;
  failed: number;
  /** CPU time of this process (server and load generator) per request, in microseconds. */
  cpuUs: number;
  /**
   * CPU time of the database's server processes serving this run, per request, in microseconds
   * (PostgreSQL on this machine; null when not measured). With `cpuUs`, the cost of a request
   * that does not depend on how busy the machine is, unlike requests per second.
   */
  dbCpuUs: number | null;
}

/** Clock ticks per second of /proc/<pid>/stat's times (USER_HZ: 100 on Linux). */
const TICKS_PER_S = 100;

/** User plus system CPU of the processes `pids`, in microseconds (those gone read as 0). */
export function cpuOfPids(pids: readonly number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      // Fields after the command name (which may hold spaces), from field 3: utime is 14, stime 15.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // The process ended (a pooled connection closed): its time is lost to this figure.
    }
  }
  return (ticks * 1_000_000) / TICKS_PER_S;
}

function cookieOf(res: Response): string | null {
  for (const c of res.headers.getSetCookie()) {
    const m = /^kestrel_session=([^;]*)/.exec(c);
    if (m) return `kestrel_session=${m[1]}`;
  }
  return null;
}

/** Logs in through the API (CSRF and all) and returns the session cookie. */
export async function login(appUrl: string, username: string, password: string): Promise<string> {
  const anon = await fetch(`${appUrl}/api/accounts/check-session/`);
  const cookie0 = cookieOf(anon) ?? '';
  const { csrf_token: csrf } = (await anon.json()) as { csrf_token: string };
  const res = await fetch(`${appUrl}/api/accounts/login/`, {
    method: 'POST',
    headers: { cookie: cookie0, 'x-csrftoken': csrf, 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  if (res.status !== 200) throw new Error(`login ${username}: ${res.status} ${await res.text()}`);
  const cookie = cookieOf(res) ?? cookie0;
  const check = await fetch(`${appUrl}/api/accounts/check-session/`, { headers: { cookie } });
  const body = (await check.json()) as { authenticated?: boolean };
  if (body.authenticated !== true) throw new Error(`login ${username}: not authenticated after`);
  return cookie;
}

/** One request before the load, so a wrong answer is an error rather than a fast figure. */
export async function verify(
  name: string,
  url: string,
  cookie: string | undefined,
  check: (body: Record<string, unknown>) => string | null,
): Promise<void> {
  const res = await fetch(url, { headers: cookie ? { cookie } : {} });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${name}: ${res.status} ${text.slice(0, 300)}`);
  const problem = check(JSON.parse(text) as Record<string, unknown>);
  if (problem) throw new Error(`${name}: ${problem}`);
}

/**
 * One autocannon run. Connection i uses session i % n; `paths` (optional) gives each session's
 * own request paths (e.g. case ids of its tenant), cycled by the connection.
 */
export async function load(
  url: string,
  cookies: readonly string[],
  duration: number,
  paths?: readonly (readonly string[])[],
): Promise<Result> {
  let i = 0;
  const setupClient = (client: Client) => {
    const n = i++;
    const cookie = cookies[n % cookies.length] ?? '';
    const mine = paths?.[n % cookies.length];
    if (mine?.length) {
      const start = Math.floor(n / cookies.length) % mine.length;
      const order = [...mine.slice(start), ...mine.slice(0, start)];
      client.setRequests(order.map((path) => ({ method: 'GET', path, headers: { cookie } })));
    } else {
      client.setHeaders({ cookie });
    }
  };
  return autocannon({
    url,
    connections: CONNECTIONS,
    duration,
    timeout: 10,
    ...(cookies.length ? { setupClient } : {}),
  });
}

/** A warm-up, then the measured run. */
export async function measure(
  name: string,
  url: string,
  cookies: readonly string[],
  opts: {
    warmup: number;
    duration: number;
    paths?: readonly (readonly string[])[];
    /** The database server processes serving the app (read after the warm-up), if measurable. */
    dbPids?: () => Promise<number[]>;
  },
): Promise<Figure> {
  await load(url, cookies, opts.warmup, opts.paths);
  const pids = opts.dbPids ? await opts.dbPids() : null;
  const db0 = pids ? cpuOfPids(pids) : 0;
  const cpu0 = process.cpuUsage();
  const r = await load(url, cookies, opts.duration, opts.paths);
  const cpu = process.cpuUsage(cpu0);
  const dbCpu = pids ? cpuOfPids(pids) - db0 : null;
  return {
    name,
    rps: r.requests.average,
    p99: r.latency.p99,
    p50: r.latency.p50,
    total: r.requests.total,
    failed: r.errors + r.timeouts + r.non2xx,
    cpuUs: r.requests.total ? Math.round((cpu.user + cpu.system) / r.requests.total) : 0,
    dbCpuUs: dbCpu !== null && r.requests.total ? Math.round(dbCpu / r.requests.total) : null,
  };
}
