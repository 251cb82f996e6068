import { afterEach, describe, expect, it } from 'vitest';
import { PRERENDERED, releasePrerenderWhenShown, removeBootLoader } from './first-paint';
import { prerenderBrands, prerenderedFrame, prerenderSignIn } from './prerender';

afterEach(() => {
  document.body.innerHTML = '';
});

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

function page(prerendered: boolean) {
  document.body.innerHTML = prerendered
    ? `<div id="boot-loader" ${PRERENDERED}="login" inert=""><h1>Sign in</h1></div><div id="root"></div>`
    : '<div id="boot-loader"><p>Loading…</p></div><div id="root"></div>';
  const root = document.getElementById('root');
  if (!root) throw new Error('no #root');
  return root;
}

describe('the first paint', () => {
  it("the loader goes at the app's first render; a pre-rendered page does not", () => {
    page(false);
    removeBootLoader();
    expect(document.getElementById('boot-loader')).toBeNull();
    page(true);
    removeBootLoader();
    expect(document.getElementById('boot-loader')).not.toBeNull();
  });

  it('a pre-rendered page stays over the loader and goes when the app shows a screen', async () => {
    const root = page(true);
    releasePrerenderWhenShown(root);
    // MantineProvider's stylesheet, then the full-page loader: still the pre-rendered page.
    root.innerHTML = '<style></style><div aria-busy="true"><p>Loading…</p></div>';
    await settle();
    expect(document.getElementById('boot-loader')).not.toBeNull();
    // A redirect renders nothing of its own.
    root.innerHTML = '<style></style>';
    await settle();
    expect(document.getElementById('boot-loader')).not.toBeNull();
    root.innerHTML = '<style></style><div class="shell"><h1>Sign in</h1></div>';
    await settle();
    expect(document.getElementById('boot-loader')).toBeNull();
  });

  it('goes for any screen of the app, an error page too, and never without one', async () => {
    const root = page(true);
    releasePrerenderWhenShown(root);
    root.innerHTML = '<div role="alert">Something went wrong</div>';
    await settle();
    expect(document.getElementById('boot-loader')).toBeNull();
    // Without a pre-rendered page nothing is watched or removed.
    const plain = page(false);
    releasePrerenderWhenShown(plain);
    plain.innerHTML = '<div>Screen</div>';
    await settle();
    expect(document.getElementById('boot-loader')).not.toBeNull();
  });
});

describe('the pre-rendered sign-in page', () => {
  it('is the sign-in form, inert, with read-only inputs, in the brand of the host', () => {
    const html = prerenderSignIn();
    expect(html.startsWith(`<div id="boot-loader" ${PRERENDERED}="login" inert=""`)).toBe(true);
    expect(html).toContain('Welcome back. Sign in to continue.');
    expect(html).toContain('Sign in with your organisation');
    expect(html).toContain('Kestrel Checks');
    expect(html).toContain('data-mantine-styles');
    const inputs = html.match(/<input[^>]*>/g) ?? [];
    expect(inputs.length).toBe(2);
    for (const input of inputs) expect(input).toContain('readonly=""');
    const brands = prerenderBrands();
    expect(brands.map((b) => b.id)).toEqual(['kestrel', 'harrier']);
    expect(brands.filter((b) => b.fallback).map((b) => b.id)).toEqual(['kestrel']);
    expect(brands[0]?.hosts).toContain('localhost');
  });

  it('keeps an input that is read-only already as it is', () => {
    expect(prerenderedFrame('x', '<input readonly="" a><input b>')).toContain(
      '<input readonly="" a><input readonly="" b>',
    );
  });
});
