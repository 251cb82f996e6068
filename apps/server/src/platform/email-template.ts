import type { EmailSite } from './email-site.js';
import type { MailMessage } from './mailer.js';

/** What an email says; the template adds the brand (logo, colour, contact details). */
export interface EmailContent {
  to: string;
  subject: string;
  /** 'Hello Ann,' */
  greeting: string;
  /** Paragraphs before the link, plain text. */
  paragraphs: readonly string[];
  /** The one thing to do: a button in HTML, the address on its own line in text. */
  action?: { label: string; url: string };
  /** Paragraphs after the link (how long it works, what to do if unexpected). */
  after?: readonly string[];
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text made safe for HTML content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

/** The brand's logo for emails (a PNG served by the web app: mail clients do not show SVG). */
export function logoUrl(site: EmailSite): string {
  return `${site.publicUrl}/email/${site.brand.id}-logo.png`;
}

function paragraphsHtml(paragraphs: readonly string[]): string {
  return paragraphs
    .map(
      (p) =>
        `<p style="margin:0 0 16px;font-size:15px;line-height:1.5;color:#1f2933">${escapeHtml(p).replace(/\n/g, '<br>')}</p>`,
    )
    .join('\n');
}

/**
 * A branded email: a plain-text part and an HTML part (the brand's logo and colour in the
 * header, the action as a button in that colour, the brand's contact details in the footer).
 * Every value is escaped; links are the caller's, built on the site's address.
 */
export function brandedEmail(site: EmailSite, c: EmailContent): MailMessage {
  const { brand } = site;
  const contact = `${brand.name} · ${brand.contact.email} · ${brand.contact.phone} · ${brand.contact.address}`;
  const text = [
    c.greeting,
    ...c.paragraphs,
    ...(c.action ? [`${c.action.label}:\n${c.action.url}`] : []),
    ...(c.after ?? []),
    `${brand.name}\n${site.publicUrl}\n${brand.contact.email} · ${brand.contact.phone}\n${brand.contact.address}`,
  ].join('\n\n');
  const button = c.action
    ? `<p style="margin:8px 0 24px"><a href="${escapeHtml(c.action.url)}" style="display:inline-block;background:${brand.colour};color:#ffffff;text-decoration:none;font-weight:600;font-size:15px;padding:12px 20px;border-radius:6px">${escapeHtml(c.action.label)}</a></p>
<p style="margin:0 0 16px;font-size:13px;line-height:1.5;color:#52606d">If the button does not work, open this address: <a href="${escapeHtml(c.action.url)}" style="color:${brand.colour};word-break:break-all">${escapeHtml(c.action.url)}</a></p>`
    : '';
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(c.subject)}</title></head>
<body style="margin:0;padding:0;background:#f3f5f7;font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f3f5f7;padding:24px 12px"><tr><td align="center">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:8px;overflow:hidden">
<tr><td style="background:${brand.colour};padding:16px 24px"><a href="${escapeHtml(site.publicUrl)}" style="color:#ffffff;text-decoration:none;font-size:18px;font-weight:700"><img src="${escapeHtml(logoUrl(site))}" width="32" height="32" alt="" style="vertical-align:middle;border:0;margin-right:10px">${escapeHtml(brand.name)}</a></td></tr>
<tr><td style="padding:24px">
${paragraphsHtml([c.greeting, ...c.paragraphs])}
${button}
${paragraphsHtml(c.after ?? [])}
</td></tr>
<tr><td style="padding:16px 24px;border-top:1px solid #e4e7eb;font-size:12px;line-height:1.5;color:#52606d">${escapeHtml(contact)}<br><a href="${escapeHtml(site.publicUrl)}" style="color:${brand.colour}">${escapeHtml(site.publicUrl)}</a></td></tr>
</table></td></tr></table></body></html>`;
  return { to: c.to, subject: c.subject, text, html, fromName: brand.name };
}
