/** A download URL with `inline=true` (shown in the browser, not saved), keeping its other query. */
export function inlineUrl(contentUrl: string): string {
  const [path = '', query = ''] = contentUrl.split('?');
  const params = new URLSearchParams(query);
  params.set('inline', 'true');
  return `${path}?${params.toString()}`;
}
