import type { FastifyInstance, FastifyReply } from 'fastify';
import { IDV_SIGNATURE_HEADER } from '../../providers/idv/signature.js';
import {
  IDV_SIMULATOR_PATH,
  IdvSimulator,
  type SimulatedSession,
} from '../../providers/idv/simulator.js';
import { idvProviderOf } from './provider-of.js';

// The simulator's own pages (IDV_PROVIDER=simulator): the person sees a provider's page, not
// Kestrel's, finishes (or cancels) the check there and is sent back to the portal. Finishing
// posts the signed callback to Kestrel's callback route, as the real provider would (in-process).

const html = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font-family:Georgia,'Times New Roman',serif;background:#f3efe6;color:#1d2a2f}
header{background:#123c3a;color:#fff;padding:14px 20px;font:700 1.1rem/1.3 system-ui,sans-serif;letter-spacing:.04em}
header span{display:block;font-weight:400;font-size:.8rem;opacity:.85}
main{max-width:34rem;margin:0 auto;padding:24px 16px}
h1{font-size:1.6rem;margin:0 0 12px}
dl{background:#fff;border:1px solid #c9c0ad;border-radius:8px;padding:12px 16px;margin:0 0 20px}
dt{font:600 .85rem system-ui,sans-serif;color:#4a5a5e;margin-top:8px}
dd{margin:2px 0 6px;font-size:1.05rem}
.note{font:.9rem/1.5 system-ui,sans-serif;background:#fff7d6;border-left:4px solid #d4a21c;padding:10px 12px;margin:0 0 20px}
button{display:block;width:100%;min-height:48px;font:600 1rem system-ui,sans-serif;border-radius:24px;border:2px solid #123c3a;margin:0 0 12px;cursor:pointer}
.primary{background:#1f7a5c;border-color:#1f7a5c;color:#fff}
.secondary{background:#fff;color:#123c3a}
button:focus-visible{outline:3px solid #d4a21c;outline-offset:2px}
footer{font:.8rem system-ui,sans-serif;color:#4a5a5e;text-align:center;padding:16px}
`;

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${html(title)} – VerifyNow (simulated)</title><style>${STYLE}</style></head>
<body><header>VerifyNow<span>Identity verification – test simulator</span></header>
<main>${body}</main><footer>Simulated identity service provider. No real checks are made.</footer></body></html>`;
}

function sessionPage(s: SimulatedSession): string {
  const p = s.request.person;
  const name = [p.forename, p.middlename, p.surname].filter((x) => x !== '').join(' ');
  const action = `${IDV_SIMULATOR_PATH}/sessions/${encodeURIComponent(s.id)}/`;
  const done = s.result
    ? `<p class="note">This check has already been completed. Continue to go back.</p>`
    : `<p class="note">The surname decides the outcome in this simulator (see its README): "Fail…" or
"Mismatch…" passes with a name mismatch, "Bank…" passes by bank verification, "Branch…" in a
Post Office branch, "NoRTW…" without right to work, anything else passes.</p>`;
  return page(
    'Verify your identity',
    `<h1>Verify your identity</h1>
<p>Check the details below, then confirm to verify your identity with your photo ID.</p>
<dl><dt>Name</dt><dd>${html(name || 'Not given')}</dd>
<dt>Date of birth</dt><dd>${html(p.dob ?? 'Not given')}</dd>
<dt>Level of assurance</dt><dd>${html(s.request.level)}</dd></dl>
${done}
<form method="post" action="${action}">
<button class="primary" type="submit" name="action" value="verify">Verify my identity</button>
<button class="secondary" type="submit" name="action" value="cancel">Cancel and go back</button>
</form>`,
  );
}

function notFound(reply: FastifyReply) {
  return reply
    .code(404)
    .type('text/html; charset=utf-8')
    .send(
      page(
        'Session not found',
        '<h1>Session not found</h1><p>This verification link is not valid or has expired. Go back and start again.</p>',
      ),
    );
}

export async function simulatorRoutes(app: FastifyInstance): Promise<void> {
  await app.register(async (child) => {
    child.removeAllContentTypeParsers();
    child.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );
    const simulator = () => {
      const p = idvProviderOf(child.deps);
      return p instanceof IdvSimulator ? p : null;
    };
    const path = `${IDV_SIMULATOR_PATH}/sessions/:sid/`;

    child.get<{ Params: { sid: string } }>(
      path,
      { schema: { hide: true } },
      async (request, reply) => {
        const s = simulator()?.session(request.params.sid);
        if (!s) return notFound(reply);
        return reply
          .type('text/html; charset=utf-8')
          .header('cache-control', 'no-store')
          .send(sessionPage(s));
      },
    );

    child.post<{ Params: { sid: string }; Body: Record<string, string> }>(
      path,
      { schema: { hide: true } },
      async (request, reply) => {
        const sim = simulator();
        const s = sim?.session(request.params.sid);
        if (!sim || !s) return notFound(reply);
        const action =
          typeof request.body === 'object' && request.body !== null ? request.body.action : '';
        if (action === 'verify') {
          const { body, signature } = sim.finish(s.id);
          // the provider's callback, delivered to the engine's callback route it was given
          const res = await child.inject({
            method: 'POST',
            url: new URL(s.request.callbackUrl).pathname,
            headers: { 'content-type': 'application/json', [IDV_SIGNATURE_HEADER]: signature },
            payload: body,
          });
          if (res.statusCode !== 200) {
            request.log.warn({ status: res.statusCode }, 'idv simulator callback refused');
          }
        }
        return reply.redirect(s.request.returnUrl, 303);
      },
    );
  });
}
