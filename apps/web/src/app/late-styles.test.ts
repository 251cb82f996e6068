import { afterEach, describe, expect, it } from 'vitest';
import { keepLateStylesAfterEntry } from './late-styles';

afterEach(() => {
  document.head.innerHTML = '';
  document.body.innerHTML = '';
});

// Named by data-name, not href: the test DOM loads no stylesheets.
const link = (name: string) => {
  const el = document.createElement('link');
  el.rel = 'stylesheet';
  el.dataset.name = name;
  return el;
};

describe('stylesheets loaded after the first paint', () => {
  it("go after the entry's stylesheet, before #root, in the order they came", async () => {
    document.body.innerHTML =
      '<div id="boot-loader"></div><link rel="stylesheet" data-name="/css/web.css"><div id="root"></div>';
    const stop = keepLateStylesAfterEntry();
    const preload = document.createElement('link');
    preload.rel = 'preload';
    document.head.append(preload, link('/css/frame-styles.css'));
    document.head.append(link('/css/app-styles.css'));
    await Promise.resolve();
    const order = [...document.querySelectorAll('link[rel="stylesheet"], #root')].map(
      (el) => el.getAttribute('data-name') ?? el.id,
    );
    expect(order).toEqual(['/css/web.css', '/css/frame-styles.css', '/css/app-styles.css', 'root']);
    // A preload is not a stylesheet: it stays in the head.
    expect(preload.parentNode).toBe(document.head);
    stop();
  });

  it('does nothing without #root', () => {
    const stop = keepLateStylesAfterEntry();
    const late = link('/css/late.css');
    document.head.append(late);
    expect(late.parentNode).toBe(document.head);
    stop();
  });
});
