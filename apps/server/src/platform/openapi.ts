import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import fastifySwagger, {
  type SwaggerTransform,
  type SwaggerTransformObject,
} from '@fastify/swagger';
import type { FastifyInstance, FastifySchema } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { type Audience, audienceOf, type RouteAccess } from './access.js';

/*
 * The OpenAPI document, made once from the routes (their Zod contracts and `config.access`): the
 * document a customer's developer generates a client from (issue 33), so it meets Redocly's
 * recommended rules. Nothing here is written per route: each operation's `operationId`, summary,
 * tag, security requirement and 4xx answers follow from its method, path, contracts and access;
 * a route may still declare its own `summary`, `description`, `operationId` or `tags`.
 */

type Json = Record<string, unknown>;

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const PARAM = /^(?::(\w+)|\{(\w+)\})$/;

/** The security schemes: the session cookie (with its CSRF header) and a customer's API key. */
export const SECURITY_SCHEMES = {
  session: {
    type: 'apiKey',
    in: 'cookie',
    name: 'kestrel_session',
    description: 'The session cookie set by `POST /api/accounts/login/` (or check-session).',
  },
  csrf: {
    type: 'apiKey',
    in: 'header',
    name: 'X-CSRFToken',
    description:
      'With the session cookie, every POST, PUT, PATCH and DELETE sends the `csrf_token` of the ' +
      'latest check-session or login answer.',
  },
  bearer: {
    type: 'http',
    scheme: 'bearer',
    description:
      "A customer's API key (`Authorization: Bearer <key>`), created under the customer account: " +
      'no cookie and no CSRF header; it acts with its scopes on the customer workspace.',
  },
} as const;

/** The shapes of the API's errors (docs/api-contract.md): `{detail}` and the field errors. */
const ERROR_SCHEMAS = {
  Error: {
    type: 'object',
    description: 'A refusal: its message in `detail`.',
    properties: { detail: { type: 'string' } },
    required: ['detail'],
  },
  FieldErrors: {
    type: 'object',
    description:
      "The input's errors: each field's messages (`non_field_errors` for the whole body; a " +
      'nested field by its dotted path).',
    additionalProperties: { type: 'array', items: { type: 'string' } },
  },
} as const;

const errorAnswer = (description: string, schema: 'Error' | 'FieldErrors') => ({
  description,
  content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } },
});

/** The 4xx answers operations point at. */
const ERROR_RESPONSES = {
  BadRequest: errorAnswer('The input is refused (a field, the query or a path id).', 'FieldErrors'),
  Unauthorized: errorAnswer(
    'No valid session, or an unknown or revoked API key (`{"detail": "Invalid API key."}`).',
    'Error',
  ),
  Forbidden: errorAnswer(
    'Refused: a permission or entitlement missing, an audience that may not call it, or the ' +
      'CSRF token missing (`{"detail": "CSRF Failed"}`).',
    'Error',
  ),
  NotFound: errorAnswer(
    'No such object (an object of another customer answers the same).',
    'Error',
  ),
} as const;

/** The path's segments after `/api/`, without the audience's prefix (`ops`, `s`, `public`). */
function resourceSegments(url: string): string[] {
  const segs = url.split('/').filter((s) => s.length > 0);
  if (segs[0] === 'api') segs.shift();
  if (segs[0] === 'lms' && (segs[1] === 's' || segs[1] === 'public')) segs.splice(1, 1);
  else if (segs[0] === 'ops' || segs[0] === 's' || segs[0] === 'public') segs.shift();
  return segs;
}

const isParam = (seg: string) => PARAM.test(seg);
const paramName = (seg: string) => {
  const m = PARAM.exec(seg);
  return m?.[1] ?? m?.[2] ?? seg;
};
const words = (seg: string) => seg.replace(/[-_]+/g, ' ').trim();
const capitalise = (s: string) => (s ? `${s.charAt(0).toUpperCase()}${s.slice(1)}` : s);
const pascal = (s: string) =>
  s
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map(capitalise)
    .join('');

/** A plural resource's singular, for summaries ('case-activities' → 'case activity'). */
export function singular(phrase: string): string {
  const parts = words(phrase).split(' ');
  const last = parts.pop() ?? '';
  let one = last;
  if (/ies$/.test(last)) one = `${last.slice(0, -3)}y`;
  else if (/(ss|x|ch|sh|us)es$/.test(last)) one = last.slice(0, -2);
  else if (/(ss|us|is)$/.test(last)) one = last;
  else if (/s$/.test(last)) one = last.slice(0, -1);
  return [...parts, one].join(' ');
}

/** 'a case', 'an activity', 'a user' (a 'u' said 'you' takes 'a'). */
const article = (noun: string) =>
  /^[aeiou]/i.test(noun) && !/^(u[bcdfghjklmnpqrstvwxz][aeiou]|eu|one)/i.test(noun)
    ? `an ${noun}`
    : `a ${noun}`;

const AUDIENCE_LABEL: Partial<Record<Audience, string>> = {
  ops: 'operations',
  subject: 'subject portal',
};

/** `getCasesById`, `postOpsCasesByIdArchive`: the method and the path, unique as they are. */
export function operationIdOf(method: string, url: string): string {
  const segs = url.split('/').filter((s) => s.length > 0);
  if (segs[0] === 'api') segs.shift();
  const parts = segs.map((s) => {
    if (isParam(s)) return `By${pascal(paramName(s))}`;
    if (s === 's') return 'Subject';
    return pascal(s);
  });
  return `${method.toLowerCase()}${parts.join('')}`;
}

interface Shape {
  /** 201 declared: the operation creates. */
  creates: boolean;
  /** A page (`count`, `results`) answered. */
  lists: boolean;
}

/** A summary from the method, the path and the answer's shape ('List cases', 'Case: archive'). */
export function summaryOf(method: string, url: string, audience: Audience, shape: Shape): string {
  const segs = resourceSegments(url);
  const named = segs.filter((s) => !isParam(s));
  const last = segs.at(-1) ?? '';
  const before = segs.at(-2);
  const m = method.toUpperCase();
  let text: string;
  if (named.length === 0) {
    text = `${capitalise(m.toLowerCase())} ${words(url)}`;
  } else if (isParam(last)) {
    const noun = singular(named.at(-1) ?? '');
    const verb =
      m === 'GET' ? 'Get' : m === 'DELETE' ? 'Delete' : m === 'POST' ? 'Act on' : 'Update';
    text = `${verb} ${article(noun)}`;
  } else if (before !== undefined && isParam(before)) {
    const owner = singular(named.at(-2) ?? '');
    if (m === 'GET' && shape.lists) text = `List ${words(last)} of ${article(owner)}`;
    else if (m === 'POST' && shape.creates) {
      text = `Create ${article(singular(last))} for ${article(owner)}`;
    } else text = `${capitalise(owner)}: ${words(last)}`;
  } else if (m === 'GET' && shape.lists) {
    text = `List ${words(last)}`;
  } else if (m === 'POST' && shape.creates) {
    text = `Create ${article(singular(last))}`;
  } else if (named.length >= 2) {
    text = `${capitalise(words(named.at(-2) ?? ''))}: ${words(last)}`;
  } else {
    const verb: Record<string, string> = {
      GET: 'Get',
      POST: 'Submit',
      PUT: 'Replace',
      PATCH: 'Update',
      DELETE: 'Delete',
    };
    text = `${verb[m] ?? capitalise(m.toLowerCase())} ${words(last)}`;
  }
  const label = AUDIENCE_LABEL[audience];
  return label ? `${text} (${label})` : text;
}

/** Routes of the signed-in person's own account: a key never reaches them (checkAccess). */
const ownAccount = (url: string) =>
  url.startsWith('/api/user/') || url.startsWith('/api/accounts/');

/**
 * Who may call the operation, as OpenAPI security requirements: a public one anonymously (with
 * the cookie's CSRF token on unsafe methods); the customer workspace with the session or an API
 * key; anything else (ops, the subject portal, one's own account) with the session only.
 */
export function securityOf(method: string, url: string, audience: Audience): Json[] {
  const unsafe = UNSAFE.has(method.toUpperCase());
  const session = unsafe ? { session: [], csrf: [] } : { session: [] };
  if (audience === 'public') return unsafe ? [session] : [{}];
  if (audience === 'product' && !ownAccount(url)) return [session, { bearer: [] }];
  return [session];
}

function accessNote(access: RouteAccess | undefined): string | null {
  const lines: string[] = [];
  if (access?.permissions?.length) {
    lines.push(`Permissions: ${access.permissions.map((p) => `\`${p}\``).join(', ')}.`);
  }
  if (access?.entitlements?.length) {
    lines.push(`Entitlements: ${access.entitlements.map((e) => `\`${e}\``).join(', ')}.`);
  }
  return lines.length > 0 ? lines.join(' ') : null;
}

const isRecord = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function shapeOf(response: unknown): Shape {
  if (!isRecord(response)) return { creates: false, lists: false };
  const ok = response['200'] ?? response[200];
  const props = isRecord(ok) && isRecord(ok.properties) ? ok.properties : {};
  return { creates: '201' in response, lists: 'results' in props && 'count' in props };
}

/** The per-route part: the Zod contracts as JSON Schema, then what the access config says. */
export const openApiTransform: SwaggerTransform = (input) => {
  const { route, url } = input;
  // Only the API: the liveness probe is not a customer's to call.
  if (url === '/healthz') return { schema: { hide: true } as FastifySchema, url };
  const converted = jsonSchemaTransform(input);
  const schema: Json = { ...((converted.schema as Json | undefined) ?? {}) };
  if (schema.hide) return converted;
  const methods = [route.method].flat();
  const method = String(methods[0] ?? 'GET');
  const access = route.config?.access;
  const audience: Audience = url.startsWith('/api/') ? audienceOf(url, access?.audience) : 'public';
  schema.operationId ??= operationIdOf(method, url);
  schema.summary ??= summaryOf(method, url, audience, shapeOf(schema.response));
  schema.security ??= securityOf(method, url, audience);
  if (!Array.isArray(schema.tags) || schema.tags.length === 0) {
    const first = resourceSegments(url).find((s) => !isParam(s)) ?? 'api';
    schema.tags = [words(first)];
  }
  const note = accessNote(access);
  if (note) {
    schema.description =
      typeof schema.description === 'string' ? `${schema.description}\n\n${note}` : note;
  }
  return { schema: schema as FastifySchema, url: converted.url };
};

/** Calls `fn` on every object of the tree (arrays walked). */
function eachObject(node: unknown, fn: (o: Json) => void): void {
  if (Array.isArray(node)) {
    for (const item of node) eachObject(item, fn);
  } else if (isRecord(node)) {
    fn(node);
    for (const value of Object.values(node)) eachObject(value, fn);
  }
}

const typeOfValue = (v: unknown) =>
  typeof v === 'string'
    ? 'string'
    : typeof v === 'boolean'
      ? 'boolean'
      : typeof v === 'number'
        ? Number.isInteger(v)
          ? 'integer'
          : 'number'
        : null;

/**
 * OpenAPI 3.0's `nullable` means nothing without a `type` beside it (Redocly's
 * nullable-type-sibling): a nullable union of one type gets that type (a Zod union of literals
 * of one kind); a nullable enum the type of its values; any other nullable union a null branch.
 */
export function fixNullable(schema: Json): void {
  if (typeof schema.nullable !== 'boolean' || schema.type !== undefined) return;
  const branches = (schema.anyOf ?? schema.oneOf) as unknown;
  if (Array.isArray(branches)) {
    const types = new Set(branches.map((b) => (isRecord(b) ? b.type : undefined)));
    const [only] = [...types];
    if (types.size === 1 && typeof only === 'string') {
      schema.type = only;
      return;
    }
    if (schema.nullable) {
      const key = schema.anyOf ? 'anyOf' : 'oneOf';
      schema[key] = [...branches, { type: 'string', nullable: true, enum: [null] }];
    }
    delete schema.nullable;
    return;
  }
  if (Array.isArray(schema.enum)) {
    const types = new Set(schema.enum.map(typeOfValue).filter((t) => t !== null));
    const [only] = [...types];
    if (types.size === 1 && only) {
      schema.type = only;
      return;
    }
  }
  if (!schema.nullable) delete schema.nullable;
}

/**
 * A record with enum keys (Zod's `z.record(z.enum([...]), v)`) requires every key yet declares
 * none: each required key gets the record's value schema (Redocly's
 * no-required-schema-properties-undefined).
 */
export function fixRequiredKeys(schema: Json): void {
  if (!Array.isArray(schema.required) || !isRecord(schema.additionalProperties)) return;
  const props: Json = isRecord(schema.properties) ? schema.properties : {};
  const value = schema.additionalProperties;
  let added = false;
  for (const key of schema.required) {
    if (typeof key === 'string' && !(key in props)) {
      props[key] = value;
      added = true;
    }
  }
  if (added) schema.properties = props;
}

/** The 4xx answers an operation can give, from what it takes and who may call it. */
function errorRefs(method: string, path: string, op: Json): Json {
  const refs: Json = {};
  const ref = (name: keyof typeof ERROR_RESPONSES) => ({ $ref: `#/components/responses/${name}` });
  const params = Array.isArray(op.parameters) ? op.parameters : [];
  if (op.requestBody || params.length > 0) refs['400'] = ref('BadRequest');
  // checkAccess reads a bearer key on every /api/ request, a public one's too.
  const security = Array.isArray(op.security) ? op.security : [];
  const anonymous = security.some((s) => isRecord(s) && Object.keys(s).length === 0);
  if (path.startsWith('/api/')) refs['401'] = ref('Unauthorized');
  if (path.startsWith('/api/') && (!anonymous || UNSAFE.has(method.toUpperCase()))) {
    refs['403'] = ref('Forbidden');
  }
  if (path.includes('{')) refs['404'] = ref('NotFound');
  return refs;
}

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/** The whole document: the error shapes, each operation's 4xx answers, the schema fixes. */
export function openApiTransformObject(servers: { url: string; description: string }[]) {
  const transform: SwaggerTransformObject = (documentObject) => {
    if (!('openapiObject' in documentObject)) return documentObject.swaggerObject;
    const doc = documentObject.openapiObject as Json;
    doc.servers = servers;
    const components: Json = isRecord(doc.components) ? doc.components : {};
    components.schemas = {
      ...(isRecord(components.schemas) ? components.schemas : {}),
      ...ERROR_SCHEMAS,
    };
    components.responses = {
      ...(isRecord(components.responses) ? components.responses : {}),
      ...ERROR_RESPONSES,
    };
    doc.components = components;
    const ids = new Map<string, number>();
    for (const [path, item] of Object.entries(isRecord(doc.paths) ? doc.paths : {})) {
      if (!isRecord(item)) continue;
      for (const [method, value] of Object.entries(item)) {
        if (!HTTP_METHODS.has(method) || !isRecord(value)) continue;
        // One route of several methods shares its operation object: each its own copy.
        const op: Json = {
          ...value,
          responses: { ...(isRecord(value.responses) ? value.responses : {}) },
        };
        item[method] = op;
        const id =
          typeof op.operationId === 'string' ? op.operationId : operationIdOf(method, path);
        const seen = ids.get(id) ?? 0;
        ids.set(id, seen + 1);
        op.operationId =
          seen === 0 ? id : `${id}${method.charAt(0).toUpperCase()}${method.slice(1)}${seen}`;
        const responses = op.responses as Json;
        const declared = Object.keys(responses).some((code) => /^4/.test(code));
        if (!declared) Object.assign(responses, errorRefs(method, path, op));
      }
    }
    eachObject(doc.paths, (o) => {
      fixNullable(o);
      fixRequiredKeys(o);
    });
    eachObject(components.schemas, (o) => {
      fixNullable(o);
      fixRequiredKeys(o);
    });
    return doc;
  };
  return transform;
}

/** Registers @fastify/swagger with the transforms above; the document is `app.swagger()`. */
export async function registerOpenApi(app: FastifyInstance, publicUrl: string): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'Kestrel API',
        version: '1.0.0',
        description:
          "The API of the Kestrel web application and of customers' own systems: sign in with " +
          "the session cookie, or send a customer's API key as a bearer token. Errors: `{detail}` " +
          'or the field errors `{field: [messages]}`.',
      },
      components: { securitySchemes: SECURITY_SCHEMES },
    },
    transform: openApiTransform,
    transformObject: openApiTransformObject([
      { url: publicUrl, description: 'This Kestrel installation' },
    ]),
  });
}

const requireHere = createRequire(import.meta.url);

/** The reference pages: Redoc's standalone bundle (from npm, served here; no CDN). */
export const REFERENCE_PATH = '/api/docs/reference/';
const REDOC_BUNDLE_PATH = '/api/docs/redoc.standalone.js';

const REFERENCE_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Kestrel API reference</title>
</head><body>
<redoc spec-url="/api/docs/openapi.json" hide-download-button="false"></redoc>
<script src="${REDOC_BUNDLE_PATH}"></script>
</body></html>
`;

/**
 * The document (`/api/docs/`, `/api/docs/openapi.json`) and its browsable reference pages
 * (`/api/docs/reference/`), public. Redoc builds its search index in a worker made from a blob:
 * the page's own CSP allows that worker, nothing else more.
 */
export function registerApiDocs(app: FastifyInstance): void {
  const open = { schema: { hide: true }, config: { access: { audience: 'public' as const } } };
  const docs = async () => app.swagger();
  app.get('/api/docs/', open, docs);
  app.get('/api/docs/openapi.json', open, docs);
  let bundle: Promise<string> | null = null;
  app.get(REDOC_BUNDLE_PATH, open, async (_request, reply) => {
    // Its attribution's logo is the one thing the bundle fetches from another origin: an empty
    // image instead (the img hides itself when it fails), so the page loads nothing from outside.
    bundle ??= readFile(requireHere.resolve('redoc/bundles/redoc.standalone.js'), 'utf8').then(
      (text) => text.replaceAll('"https://cdn.redoc.ly/redoc/logo-mini.svg"', '"data:,"'),
    );
    reply.header('content-type', 'text/javascript; charset=utf-8');
    reply.header('cache-control', 'public, max-age=86400');
    return bundle;
  });
  app.get(REFERENCE_PATH, open, async (_request, reply) => {
    const csp = reply.getHeader('content-security-policy');
    if (typeof csp === 'string') {
      reply.header('content-security-policy', `${csp};worker-src 'self' blob:`);
    }
    reply.header('content-type', 'text/html; charset=utf-8');
    return REFERENCE_PAGE;
  });
}
