import { APP_ROLE, type Database, OPS_ROLE, SUBJECT_ROLE, SYSTEM_ROLE } from './connection.js';

/**
 * What is wrong with the login the server serves requests through (PostgreSQL): a superuser, a
 * role that bypasses RLS, owns tables or may become roles other than the four context roles
 * turns any SQL injection into a read of every tenant (`RESET ROLE` ends the context role).
 * Empty when the login is least-privileged. Read inside an ordinary (system) transaction:
 * `session_user` is the login whatever role the transaction has set.
 *
 * PGlite answers no warnings: it is an embedded database of one process with a single session
 * that is necessarily the superuser (there is no second login to serve through), so the context
 * roles set in every transaction are the whole protection there; a warning on every start would
 * only teach people to ignore it. Deployments that need the login separation use PostgreSQL.
 */
export async function servingRoleWarnings(db: Database): Promise<string[]> {
  if (db.kind !== 'pg') return [];
  const rows = await db.readInline(
    { scope: 'system', customerId: null },
    `select session_user::text as login, r.rolsuper as super, r.rolbypassrls as bypass,
       (select count(*)::int from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where c.relowner = r.oid and n.nspname = 'public'
            and c.relkind in ('r', 'p')) as owned,
       (select coalesce(string_agg(g.rolname, ', ' order by g.rolname), '') from pg_auth_members m
          join pg_roles g on g.oid = m.roleid
          where m.member = r.oid
            and g.rolname not in ('${APP_ROLE}', '${OPS_ROLE}', '${SUBJECT_ROLE}', '${SYSTEM_ROLE}')) as other_roles
     from pg_roles r where r.rolname = session_user`,
  );
  const r = rows[0];
  if (!r) return [];
  const login = String(r.login);
  const warnings: string[] = [];
  const fix = 'serve through a least-privileged login (DATABASE_APP_URL, see the README)';
  if (r.super === true) warnings.push(`the database login ${login} is a superuser: ${fix}`);
  else if (r.bypass === true) warnings.push(`the database login ${login} bypasses RLS: ${fix}`);
  const owned = Number(r.owned);
  if (owned > 0) warnings.push(`the database login ${login} owns ${owned} tables: ${fix}`);
  if (r.other_roles) {
    warnings.push(`the database login ${login} may become ${String(r.other_roles)}: ${fix}`);
  }
  return warnings;
}
