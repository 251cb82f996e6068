import { z } from 'zod';

// The query-string filters of the lists, as the OpenAPI document declares them. Each is text as
// sent: the server's parsers read it with the API's rules and messages (strict ids, dates as
// YYYY-MM-DD, booleans as true/false), so a bad value is a 400 in the `{field: [message]}` shape.

/** A filter's value: text, or the same key repeated (read as the values joined with commas). */
const param = (description: string) =>
  z
    .union([z.string().max(2000), z.array(z.string().max(2000)).max(100)])
    .optional()
    .describe(description);
type Param = ReturnType<typeof param>;

const IDS = 'ids, comma-separated (any of them)';
const DATE = 'a date, YYYY-MM-DD (UTC)';

/** `?customer=ID` of the operations lists: one customer; all of them when absent. */
export const opsListFilters = { customer: param('one customer id (operations lists)') };

/** GET /api/cases/, /api/ops/cases/ and /api/cases/export/. */
export const caseListFilters = {
  state: param('case states, comma-separated'),
  process: param(`process ${IDS}`),
  subject: param(`subject ${IDS}`),
  created_after: param(`opened on or after ${DATE}`),
  created_before: param(`opened on or before ${DATE}`),
  flagged: param('true: only flagged cases; false: only the others'),
  is_archived: param('true, false (the default) or all'),
};

/** GET /api/case-activities/ and the operations activity lists. */
export const caseActivityListFilters = {
  case: param(`case ${IDS}`),
  state: param('activity states, comma-separated'),
  activity_type: param('activity type codes, comma-separated'),
};

/** GET /api/subjects/: whole-value matches in any case, and the date of birth. */
export const subjectListFilters = {
  email: param('the whole email address, any case'),
  first_name: param('the whole first name, any case'),
  last_name: param('the whole last name, any case'),
  dob: param(`date of birth, ${DATE}`),
  is_archived: param('true, false (the default) or all'),
};

/** The filters of a generic resource list: `a,b` means any of them, an empty value none set. */
export function resourceListFilters(names: readonly string[]): Record<string, Param> {
  return Object.fromEntries(
    names.map((n) => [n, param('a value; a,b for any of them; empty for none set')]),
  );
}

/** The audit lists' date range (GET /api/audit-actions/, /api/ops/audit-actions/). */
export const auditDateFilters = {
  created_after: param(`on or after ${DATE}`),
  created_before: param(`on or before ${DATE}`),
};
