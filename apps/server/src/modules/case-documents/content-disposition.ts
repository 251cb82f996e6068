import { withoutUnsafeCharacters } from '@kestrel/domain';

/**
 * A safe Content-Disposition (RFC 6266, with the RFC 5987 `filename*` for any character outside
 * printable ASCII): `attachment` unless `inline`; the name's extension is the stored type's, so a
 * file never opens as something other than what the server decided it is.
 */
export function contentDisposition(
  originalName: string,
  extension: string,
  inline: boolean,
): string {
  // names stored before the rule (or by another path) are cleaned again on the way out
  const stem = withoutUnsafeCharacters(originalName.replace(/\.[^.]*$/, '')).trim() || 'document';
  const name = `${stem.slice(0, 150)}.${extension}`;
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\%;]/g, '_');
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${inline ? 'inline' : 'attachment'}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/**
 * The CSP of every download: no scripts, no plugins, no requests, in a sandbox (a unique origin:
 * a PDF's or an SVG's script cannot reach the app's cookies or API); only the app may frame it.
 */
export const DOWNLOAD_CSP =
  "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; object-src 'none'; frame-ancestors 'self'; sandbox";
