import { describe, expect, it } from 'vitest';
import { readConfig } from '../config.js';
import { emailSite } from './email-site.js';
import { brandedEmail, escapeHtml } from './email-template.js';
import { addressOf } from './mailer.js';

describe('branded emails', () => {
  const site = emailSite('http://127.0.0.1:5173', 'http://localhost:8080');

  it('escapes every value put into the HTML part', () => {
    expect(escapeHtml(`<a href="x">Tom & 'Jo'</a>`)).toBe(
      '&lt;a href=&quot;x&quot;&gt;Tom &amp; &#39;Jo&#39;&lt;/a&gt;',
    );
    const mail = brandedEmail(site, {
      to: 'a@b.test',
      subject: 'Hi <b>',
      greeting: 'Hello <script>alert(1)</script>,',
      paragraphs: ['Acme & Sons "Ltd" has asked\nyou.'],
      action: { label: 'Open', url: 'http://127.0.0.1:5173/x?a=1&b="2"' },
    });
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('Hello &lt;script&gt;alert(1)&lt;/script&gt;,');
    expect(mail.html).toContain('Acme &amp; Sons &quot;Ltd&quot; has asked<br>you.');
    expect(mail.html).toContain('href="http://127.0.0.1:5173/x?a=1&amp;b=&quot;2&quot;"');
    expect(mail.text).toContain('Open:\nhttp://127.0.0.1:5173/x?a=1&b="2"');
    expect(mail.text).toContain(
      'Harrier Vetting\nhttp://127.0.0.1:5173\nhelp@harriervetting.co.uk',
    );
  });

  it('an email with no action has no button', () => {
    const mail = brandedEmail(site, {
      to: 'a@b.test',
      subject: 's',
      greeting: 'Hi,',
      paragraphs: [],
    });
    expect(mail.html).not.toContain('display:inline-block');
    expect(mail.text).toBe(
      'Hi,\n\nHarrier Vetting\nhttp://127.0.0.1:5173\nhelp@harriervetting.co.uk · 0113 496 0519\n2 Wellington Place, Leeds LS1 4AP',
    );
  });

  it('the site: the brand address of the request, else PUBLIC_URL and its brand', () => {
    expect(emailSite(undefined, 'https://app.harriervetting.co.uk/')).toMatchObject({
      publicUrl: 'https://app.harriervetting.co.uk',
      brand: { id: 'harrier' },
    });
    expect(emailSite(undefined, 'https://checks.example.org').brand.id).toBe('kestrel');
    expect(emailSite('http://localhost:3000', 'https://x.test').publicUrl).toBe(
      'http://localhost:3000',
    );
  });

  it("the sender's address of MAIL_FROM (the brand's name goes beside it)", () => {
    expect(addressOf('Kestrel <no-reply@kestrel.test>')).toBe('no-reply@kestrel.test');
    expect(addressOf(' no-reply@kestrel.test ')).toBe('no-reply@kestrel.test');
  });
});

describe('PUBLIC_URL', () => {
  it('defaults to this server on the port it listens on', () => {
    expect(readConfig({}, '/').publicUrl).toBe('http://localhost:8080');
    expect(readConfig({ PORT: '3100' }, '/').publicUrl).toBe('http://localhost:3100');
    expect(readConfig({ PORT: '3100', PUBLIC_URL: 'https://x.test/' }, '/').publicUrl).toBe(
      'https://x.test',
    );
  });
});
