// The roles the server's transactions run as, and the login it serves requests through.

/** The application's database role: not a superuser, cannot bypass RLS, owns no tables. */
export const APP_ROLE = 'kestrel_app';
/** The role of the explicit cross-tenant context; equally unprivileged, policies allow all rows. */
export const OPS_ROLE = 'kestrel_ops';
/** The role of a subject user's requests: the tenant, further limited to the subject's own rows. */
export const SUBJECT_ROLE = 'kestrel_subject';
/**
 * The role of the system's own work across every tenant (sessions, login and sign-up, rate
 * limits, housekeeping, mail, provider callbacks and webhooks, jobs of no customer): policies
 * allow every row, like the ops role's, but its grants are the system's, not the ops screens'.
 */
export const SYSTEM_ROLE = 'kestrel_system';
/**
 * The role of the demo seed (a start-time action of the owner, like the migrations): it writes
 * every tenant's rows. The owner becomes it (`ownerTransaction`); the serving login never may.
 */
export const SEED_ROLE = 'kestrel_seed';
/**
 * The login the server serves requests through on PostgreSQL when DATABASE_APP_URL is not set:
 * DATABASE_URL's server and database as this role (created by the migrations, see
 * `loginRoleSql`). It owns nothing and may only become the four roles above but the seed's.
 */
export const LOGIN_ROLE = 'kestrel_login';
