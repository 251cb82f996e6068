// The tables that are not distributed by customer_id (Citus), and what Citus would still refuse
// in those that are: read by src/db/distribution.test.ts (the catalog test) and by
// src/db/query-plans.test.ts (no query joins two tenants' rows).

/**
 * The tables without `customer_id`: Citus reference tables (copied to every node) or tables kept
 * on the coordinator (Citus local tables), each with the reason it is not distributed by customer.
 */
export const REFERENCE_TABLES: Record<string, string> = {
  customers:
    'the tenants themselves (its id is the distribution key): small, read with every request, ' +
    'referred to by every tenant table',
  activity_types: 'the catalog of activity types, the same for every customer',
  content_types: 'the catalog of content types (audit targets), the same for every customer',
  countries: 'reference data (ISO countries), the same for every customer',
  verbs: 'reference data (audit verbs), the same for every customer',
  subject_users:
    "subjects' logins: one person, one login, across the customers holding their records",
  maintenance_windows: 'announced maintenance of the whole service (ops), no customer',
  outbox_emails: 'the outgoing mail queue of every customer, drained by any process (coordinator)',
  outbox_sms:
    'the text messages sent, beside outbox_emails: a record of every customer (coordinator)',
  rate_limits: 'throttle counters keyed by address or login, counted before a customer is known',
  server_secrets: 'keys of the service itself (signing, encryption), no customer',
};

/**
 * Tables with a `customer_id` that are not distributed by it: the column is nullable because some
 * of their rows belong to no customer (operations staff, built-in roles, sign-ins before a
 * customer is known), and Citus refuses a NULL distribution value. They stay reference or
 * coordinator tables, their `customer_id` an ordinary column; their rows are few per customer.
 */
export const GLOBAL_WITH_CUSTOMER: Record<string, string> = {
  product_users:
    'staff logins: operations staff have no customer, and a login is found by its name (unique ' +
    'across the service) before its customer is known',
  roles: "built-in roles (customer_id null) and each customer's roles, read with every session",
  product_user_roles: 'the roles of a staff login, with its login',
  sessions: 'found by their token before any customer is known; anonymous sessions have none',
  account_tokens:
    'password-reset and claim tokens, found by their value before any customer is known',
  security_refusals: 'refused requests, also of sessions with no customer (operations, anonymous)',
};

/**
 * What Citus would still refuse in tables that are meant to be distributed, each with its fix
 * (docs/decisions/023-ready-for-citus.md). The test fails on anything else, and on an entry here
 * that is gone (fixed: delete it).
 */
export const KNOWN_CITUS_EXCEPTIONS: Record<string, string> = {
  'audit_actions: primary key audit_actions_pkey (id)':
    'operations-level actions have customer_id null: they need their own table (or a reserved ' +
    'customer) before the primary key can be (customer_id, id)',
  'audit_actions: customer_id is nullable': 'the same',
  'check_callback_inbox: primary key check_callback_inbox_pkey (id)':
    'primary key to (customer_id, id); the inbox is read by id in its order of arrival',
  'check_callback_inbox: unique check_callback_inbox_event (provider, event_id)':
    "a provider's event ids are unique across customers and a replay is found before its customer " +
    "is: the key becomes (customer_id, provider, event_id) once the receiver knows the activity's " +
    'customer first (it does: the insert selects it), and `on conflict` names the new key',
  'payment_intents: unique payment_intents_provider_intent_idx (provider_intent_id)':
    "the payment provider's webhook finds its intent by the provider's id before the customer is " +
    'known: the id must carry the customer (metadata) or be looked up in a reference table first',
  'payment_intents: unique payment_intents_public_id_idx (public_id)':
    'the public payment link finds the intent by its public id alone: the same as above',
  'payments: unique payments_event_idx (provider_event_id)':
    "the webhook's idempotency key, before the customer is known: the same as above",
  'case_online_idv: unique case_online_idv_session_unique (session)':
    "the identity provider's callback finds its case by the session id alone: the same as above",
};
