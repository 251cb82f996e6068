import { DBS_CHECK_CODES, type RecordViewManner } from '@kestrel/domain';
import { type SQL, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { integerArray } from '../../db/sql-arrays.js';
import { actorOf } from '../../platform/access.js';
import type { Actor } from '../../platform/context.js';
import { runAsSystem } from '../../platform/service-context.js';

/** Views of one item by one person are counted together over this window (a UTC day). */
export const VIEW_WINDOW_MS = 24 * 60 * 60_000;

/**
 * The criminal-record checks (basic, standard, enhanced; the update service's status check of a
 * certificate; the adult-first barred-list check): their results are certificate information.
 */
export const CRIMINAL_RECORD_CODES: readonly string[] = [
  ...DBS_CHECK_CODES,
  'dbs-update',
  'adult-first',
];
/** The driving-record checks (the DVLA's driver data; the licence check). */
export const DRIVING_RECORD_CODES: readonly string[] = ['driver-data', 'licence-check'];
const RECORD_CODES = [...CRIMINAL_RECORD_CODES, ...DRIVING_RECORD_CODES];

/**
 * What a route's successful answer showed, read from its `:id` (or its answer):
 * - `case`: a case page (`:id` is the case): every criminal-record and driving result on it;
 * - `cases`: a CSV export of cases (their ids read from the answer's first column): every such
 *   result on each;
 * - `activity`: one activity (`:id`): its result when it is such a check;
 * - `activities`: a list of activities (their ids read from the answer's `results`);
 * - `document`: a document's file (`:id`): its preview with `?inline=1`, else its download.
 */
export type ViewedItem = 'case' | 'cases' | 'activity' | 'activities' | 'document';

export interface ViewedBy {
  actorType: string | null;
  actorId: number | null;
  actorName: string;
  actorIsOps: boolean;
  ip: string | null;
  userAgent: string;
}

/** A short summary of a user agent: browser and system (`Chrome on Windows`), or its first word. */
export function userAgentSummary(ua: string | undefined): string {
  if (!ua) return '';
  const browser =
    [
      [/Edg\//, 'Edge'],
      [/OPR\//, 'Opera'],
      [/Firefox\//, 'Firefox'],
      [/Chrome\//, 'Chrome'],
      [/Safari\//, 'Safari'],
    ].find(([re]) => (re as RegExp).test(ua))?.[1] ??
    ua.split(/[\s/]/)[0] ??
    '';
  const system = (
    [
      [/Windows/, 'Windows'],
      [/Android/, 'Android'],
      [/iPhone|iPad|iOS/, 'iOS'],
      [/Mac OS X|Macintosh/, 'macOS'],
      [/CrOS/, 'ChromeOS'],
      [/Linux/, 'Linux'],
    ] as const
  ).find(([re]) => re.test(ua))?.[1];
  return (system ? `${browser} on ${system}` : String(browser)).slice(0, 100);
}

/**
 * Who a request's actor is for the record: an API key (its session names it, `api-key:…`) is
 * its own viewer (type `ApiKey`, the id of the user who made it), apart from that user.
 */
export function viewedBy(request: FastifyRequest, actor: Actor = actorOf(request)): ViewedBy {
  const apiKey = request.session?.user?.username?.startsWith('api-key:') === true;
  return {
    actorType: apiKey ? 'ApiKey' : actor.type,
    actorId: actor.id,
    actorName: actor.name.slice(0, 200),
    actorIsOps: actor.isOps,
    ip: actor.ip?.slice(0, 64) ?? null,
    userAgent: userAgentSummary(request.headers['user-agent']),
  };
}

const codes = (list: readonly string[]) =>
  sql`array[${sql.join(
    list.map((c) => sql`${c}`),
    sql`, `,
  )}]::text[]`;
const ids = (list: readonly number[]) =>
  sql`array[${sql.join(
    list.map((c) => sql`${c}`),
    sql`, `,
  )}]::integer[]`;

/** The rows a view adds: from the activities the condition picks, or from one document. */
function viewedRows(item: ViewedItem, keys: readonly number[]): SQL {
  if (item === 'document') {
    return sql`select d.customer_id, d.case_id, 'document', d.id,
        left(concat_ws(' · ', d.document_type, d.pages->0->>'originalName'), 200)
      from case_documents d where d.id = ${keys[0] ?? 0}`;
  }
  // A case's activities are found through its customer (case_activities_case_idx), the customer
  // read from the case by its id: by case_id alone the statement read every customer's activities.
  const where =
    item === 'case'
      ? sql`a.customer_id = (select c.customer_id from cases c where c.id = ${keys[0] ?? 0})
          and a.case_id = ${keys[0] ?? 0}`
      : item === 'cases'
        ? sql`a.customer_id = any(array(select c.customer_id from cases c
              where c.id = any(${integerArray(keys)})))
            and a.case_id = any(${integerArray(keys)})`
        : sql`a.id = any(${ids(keys)})`;
  return sql`select a.customer_id, a.case_id,
        case when t.code = any(${codes(CRIMINAL_RECORD_CODES)}) then 'criminal_record'
          else 'driving_record' end,
        a.id, left(t.name, 200)
      from case_activities a join activity_types t on t.id = a.activity_type_id
      where ${where} and t.code = any(${codes(RECORD_CODES)}) and a.result_data <> '{}'::jsonb`;
}

/**
 * Records a view in one statement (an INSERT … SELECT … ON CONFLICT): one row per item shown,
 * per viewer, manner and window, its count and last time, address and browser brought up to
 * date. Run as the system: the item is read across tenants (an operations or a subject's view
 * of a customer's case), and the row is the item's customer's. Only called after a successful
 * answer, so the viewer could see the item.
 */
export async function recordView(
  request: FastifyRequest,
  item: ViewedItem,
  keys: readonly number[],
  how: RecordViewManner,
): Promise<void> {
  if (keys.length === 0) return;
  const deps = request.server.deps;
  const by = viewedBy(request);
  const at = deps.clock.now();
  const windowStart = new Date(Math.floor(at.getTime() / VIEW_WINDOW_MS) * VIEW_WINDOW_MS);
  await runAsSystem(deps, ({ tx }) =>
    tx.execute(sql`insert into record_views (customer_id, case_id, item_kind, item_id,
        item_label, how, actor_type, actor_id, actor_name, actor_is_ops, window_start,
        first_seen_at, last_seen_at, count, ip, user_agent)
      select v.*, ${how}, ${by.actorType}::varchar, ${by.actorId}::integer, ${by.actorName},
        ${by.actorIsOps}, ${windowStart.toISOString()}::timestamptz,
        ${at.toISOString()}::timestamptz, ${at.toISOString()}::timestamptz, 1, ${by.ip}::varchar,
        ${by.userAgent}
      from (${viewedRows(item, keys)}) v
      on conflict on constraint record_views_window_key do update set
        count = record_views.count + 1, last_seen_at = excluded.last_seen_at,
        item_label = excluded.item_label, actor_name = excluded.actor_name,
        ip = excluded.ip, user_agent = excluded.user_agent`),
  );
}

const idOf = (request: FastifyRequest): number | null => {
  const params = request.params;
  const raw =
    typeof params === 'object' && params !== null && 'id' in params ? params.id : undefined;
  const n = typeof raw === 'string' ? Number(raw) : Number.NaN;
  return Number.isSafeInteger(n) && n > 0 ? n : null;
};

/**
 * The ids of a list answer's `results` (a serialised JSON page of activities) whose kind is a
 * record's (`activity_type` in RECORD_CODES). The others add no row (viewedRows picks record kinds
 * only, by the same code of the same row), so a page of none (operations' queue of document
 * collections, say) needs no write transaction at all: that was a BEGIN, an INSERT … SELECT and a
 * COMMIT, two round trips, on every list request (issue 28).
 */
export function recordResultIds(payload: unknown): number[] {
  if (typeof payload !== 'string') return [];
  // No record kind anywhere in the answer: none to record, without parsing its 25 KB of JSON. Its
  // items state their kind: the hook serves the activity lists, whose response schema requires
  // `activity_type` (an answer without it is refused before onSend).
  if (!RECORD_CODES.some((c) => payload.includes(`"${c}"`))) return [];
  try {
    const page: unknown = JSON.parse(payload);
    if (typeof page !== 'object' || page === null || !('results' in page)) return [];
    const results = page.results;
    if (!Array.isArray(results)) return [];
    return results.flatMap((r: unknown) =>
      typeof r === 'object' &&
      r !== null &&
      'id' in r &&
      typeof r.id === 'number' &&
      'activity_type' in r &&
      typeof r.activity_type === 'string' &&
      RECORD_CODES.includes(r.activity_type)
        ? [r.id]
        : [],
    );
  } catch {
    return [];
  }
}

/**
 * The ids in the first column of a CSV answer's rows after its header (RFC 4180: a quoted cell
 * may hold commas, quotes and line breaks; rows end with CRLF or LF).
 */
export function csvFirstColumnIds(payload: unknown): number[] {
  if (typeof payload !== 'string') return [];
  const firsts: string[] = [];
  let cell = '';
  let column = 0;
  let quoted = false;
  for (let i = 0; i < payload.length; i++) {
    const ch = payload[i];
    if (quoted) {
      if (ch === '"' && payload[i + 1] === '"') {
        if (column === 0) cell += ch;
        i++;
      } else if (ch === '"') quoted = false;
      else if (column === 0) cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      if (column === 0) firsts.push(cell);
      column += 1;
    } else if (ch === '\n' || ch === '\r') {
      if (column === 0 && cell !== '') firsts.push(cell);
      if (ch === '\r' && payload[i + 1] === '\n') i++;
      cell = '';
      column = 0;
    } else if (column === 0) cell += ch;
  }
  if (column === 0 && cell !== '') firsts.push(cell);
  return firsts.slice(1).flatMap((c) => {
    const n = Number(c);
    return /^\d+$/.test(c) && Number.isSafeInteger(n) && n > 0 ? [n] : [];
  });
}

const isInline = (query: unknown) => {
  const v =
    typeof query === 'object' && query !== null && 'inline' in query ? query.inline : undefined;
  return v === 'true' || v === '1';
};

/**
 * A route's `onSend` hook recording who saw what (issue 34), the one place views are recorded:
 * on a 2xx answer only (a 403 or 404 showed nothing), before the answer leaves, so a view is
 * never revealed unrecorded. A failure to record is logged, not turned into an error.
 * Usage, on a route's options: `onSend: recordsViews('document')`; an export (the case's PDF,
 * the case list's CSV) is recorded as one: `onSend: recordsViews('cases', 'export')`.
 */
export function recordsViews(item: ViewedItem, manner?: 'export') {
  return async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (reply.statusCode < 200 || reply.statusCode >= 300) return payload;
    const id = idOf(request);
    const keys =
      item === 'activities'
        ? recordResultIds(payload)
        : item === 'cases'
          ? csvFirstColumnIds(payload)
          : id === null
            ? []
            : [id];
    const how = manner ?? (item === 'document' && !isInline(request.query) ? 'download' : 'page');
    await recordView(request, item, keys, how).catch((err: unknown) =>
      request.log.error({ err }, 'could not record a view'),
    );
    return payload;
  };
}
