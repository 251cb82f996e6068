import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import Provider, { type KoaContextWithOIDC } from 'oidc-provider';

/**
 * A real OpenID Connect provider (oidc-provider, panva) for development and tests: the local
 * identity provider of the organisation sign-in. It signs real ID tokens with its own RSA key,
 * issues real codes, requires PKCE (S256), and has a small sign-in page of its own: any email and
 * any password sign in (as that email, verified), and a box says whether a second factor was
 * used (the ID token's `amr` then holds 'mfa'). Never used in production: oidc-provider is a
 * development dependency, imported only where the simulators are in use and by tests.
 */

export interface DevProviderClient {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
}

export interface DevProviderOptions {
  /** The issuer: where it is served, e.g. http://127.0.0.1:4567 or http://localhost:8080/sim/oidc. */
  issuer: string;
  clients: DevProviderClient[];
  /** Emails it refuses to sign in (tests of the provider saying no): none by default. */
  refuse?: (email: string) => boolean;
}

export interface DevProvider {
  issuer: string;
  /** Node's request handler of the provider and its sign-in page (paths below the issuer's). */
  handle: (req: IncomingMessage, res: ServerResponse) => void;
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font-family:system-ui,-apple-system,'Segoe UI',sans-serif;background:#eef1f6;color:#1b2430}
header{background:#2d3e8c;color:#fff;padding:14px 20px;font-weight:700;letter-spacing:.02em}
header span{display:block;font-weight:400;font-size:.85rem;opacity:.9}
main{max-width:26rem;margin:24px auto;padding:24px 20px;background:#fff;border:1px solid #c5cbd8;border-radius:10px}
h1{font-size:1.4rem;margin:0 0 8px}
p{line-height:1.5}
label{display:block;font-weight:600;margin:14px 0 4px}
input[type=email],input[type=password]{width:100%;min-height:44px;font-size:1rem;padding:8px 10px;border:1px solid #69738a;border-radius:6px}
.check{display:flex;gap:10px;align-items:center;font-weight:400;min-height:44px}
.check input{width:22px;height:22px}
button{display:block;width:100%;min-height:48px;margin-top:18px;font:600 1rem system-ui,sans-serif;border:0;border-radius:6px;background:#2d3e8c;color:#fff;cursor:pointer}
button:focus-visible,input:focus-visible{outline:3px solid #e0a100;outline-offset:2px}
.note{font-size:.9rem;background:#fff6d8;border-left:4px solid #b58100;padding:8px 10px}
.error{font-size:.95rem;background:#fde8e8;border-left:4px solid #b3261e;padding:8px 10px}
footer{text-align:center;font-size:.8rem;color:#4d5669;padding:12px}
`;

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)} – Development identity provider</title><style>${STYLE}</style></head>
<body><header>Example Organisation ID<span>Development identity provider (OpenID Connect) – not for real use</span></header>
<main>${body}</main><footer>Any email and any password sign in here. No real accounts.</footer></body></html>`;
}

function loginPage(action: string, clientName: string, hint: string, error: string): string {
  return page(
    'Sign in',
    `<h1>Sign in</h1>
<p>to continue to <strong>${esc(clientName)}</strong></p>
${error ? `<p class="error" role="alert">${esc(error)}</p>` : ''}
<form method="post" action="${esc(action)}" autocomplete="off">
<label for="email">Email</label>
<input id="email" name="email" type="email" required value="${esc(hint)}">
<label for="password">Password</label>
<input id="password" name="password" type="password" required>
<label class="check" for="mfa"><input id="mfa" name="mfa" type="checkbox" value="1"> I confirmed with a second factor (multi-factor)</label>
<p class="note">Development only: any password works. Ticking the box puts 'mfa' in the ID token's authentication methods.</p>
<button type="submit">Sign in</button>
</form>`,
  );
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const b = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += b.length;
    if (size > 16_384) break;
    chunks.push(b);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

function send(res: ServerResponse, status: number, html: string) {
  res.statusCode = status;
  res.setHeader('content-type', 'text/html; charset=utf-8');
  res.setHeader('cache-control', 'no-store');
  res.end(html);
}

/** Builds the provider for `issuer` (served at the issuer's path by `handle`). */
export function createDevProvider(opts: DevProviderOptions): DevProvider {
  const mount = new URL(opts.issuer).pathname.replace(/\/$/, '');
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...privateKey.export({ format: 'jwk' }), kid: 'dev-1', use: 'sig', alg: 'RS256' };
  const provider = new Provider(opts.issuer, {
    clients: opts.clients.map((c) => ({
      client_id: c.clientId,
      client_secret: c.clientSecret,
      client_name: 'Kestrel',
      redirect_uris: c.redirectUris,
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
    })),
    jwks: { keys: [jwk] },
    cookies: { keys: [randomBytes(32).toString('hex')] },
    pkce: { methods: ['S256'], required: () => true },
    // email in the ID token itself, as Entra ID and Google Workspace put it
    conformIdTokenClaims: false,
    claims: {
      openid: ['sub', 'amr'],
      email: ['email', 'email_verified'],
      profile: ['name'],
    },
    features: { devInteractions: { enabled: false } },
    findAccount: async (_ctx: KoaContextWithOIDC, id: string) => ({
      accountId: id,
      claims: async () => ({ sub: id, email: id, email_verified: true, name: id.split('@')[0] }),
    }),
    interactions: {
      url: (_ctx: KoaContextWithOIDC, interaction) => `${mount}/interaction/${interaction.uid}`,
    },
    // The product is a first-party client: consent is given once signed in.
    loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
      const { session, client, provider: p } = ctx.oidc;
      if (!session?.accountId || !client) return undefined;
      const existing = ctx.oidc.result?.consent?.grantId ?? session.grantIdFor(client.clientId);
      if (existing) return p.Grant.find(existing);
      const grant = new p.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
    renderError: async (ctx: KoaContextWithOIDC, out) => {
      ctx.type = 'html';
      ctx.body = page(
        'Error',
        `<h1>Something went wrong</h1><p class="error" role="alert">${esc(String(out.error))}: ${esc(String(out.error_description ?? ''))}</p>`,
      );
    },
  });
  const callback = provider.callback();
  const interaction = /^\/interaction\/([A-Za-z0-9_-]+)(\/login)?\/?$/;

  async function interact(req: IncomingMessage, res: ServerResponse, path: string) {
    const m = interaction.exec(path);
    if (!m) return false;
    const uid = m[1] ?? '';
    const action = `${mount}/interaction/${uid}/login`;
    let details: Awaited<ReturnType<typeof provider.interactionDetails>>;
    try {
      details = await provider.interactionDetails(req, res);
    } catch {
      send(
        res,
        400,
        page('Expired', '<h1>This sign-in has expired</h1><p>Go back and start again.</p>'),
      );
      return true;
    }
    const hint = typeof details.params.login_hint === 'string' ? details.params.login_hint : '';
    if (req.method === 'POST' && m[2]) {
      const form = await readForm(req);
      const email = (form.get('email') ?? '').trim().toLowerCase();
      if (!email.includes('@') || !form.get('password')) {
        send(
          res,
          400,
          loginPage(action, 'Kestrel', email, 'Enter an email address and a password.'),
        );
        return true;
      }
      if (opts.refuse?.(email)) {
        await provider.interactionFinished(req, res, {
          error: 'access_denied',
          error_description: 'The user is not allowed to sign in.',
        });
        return true;
      }
      const amr = form.get('mfa') === '1' ? ['pwd', 'mfa'] : ['pwd'];
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId: email, amr, remember: false } },
        { mergeWithLastSubmission: false },
      );
      return true;
    }
    send(res, 200, loginPage(action, 'Kestrel', hint, ''));
    return true;
  }

  return {
    issuer: opts.issuer,
    handle: (req, res) => {
      const original = req.url ?? '/';
      const path = original.startsWith(mount) ? original.slice(mount.length) || '/' : original;
      const pathOnly = path.split('?')[0] ?? '/';
      void interact(req, res, pathOnly)
        .then((handled) => {
          if (handled) return;
          // oidc-provider reads its mount from originalUrl (as behind express).
          Object.assign(req, { originalUrl: original });
          req.url = path;
          callback(req, res);
        })
        .catch(() => {
          if (!res.headersSent) send(res, 500, page('Error', '<h1>Something went wrong</h1>'));
        });
    },
  };
}
