/** A query value: null is sent as a bare key, undefined is left out, arrays join with commas. */
export type QueryValue =
  | string
  | number
  | boolean
  | null
  | undefined
  | readonly (string | number)[];
export type QueryParams = Readonly<Record<string, QueryValue>>;

// Commas stay literal (spec point 7): `?fields=a,b`, not `a%2Cb`.
const encode = (value: string) => encodeURIComponent(value).replace(/%2C/gi, ',');

/** Builds `?a=1&b&c=x,y` (empty string when there is nothing to send). */
export function buildQuery(params?: QueryParams): string {
  if (!params) return '';
  const parts: string[] = [];
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) continue;
    if (value === null) {
      parts.push(encode(key));
      continue;
    }
    const text = Array.isArray(value) ? value.join(',') : String(value);
    parts.push(`${encode(key)}=${encode(text)}`);
  }
  return parts.length ? `?${parts.join('&')}` : '';
}
