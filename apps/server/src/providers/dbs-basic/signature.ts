/*
 * Signed provider callbacks: the criminal-record providers sign theirs with the platform's one
 * webhook scheme (platform/webhooks.ts: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw
 * body>">`, refused outside a 5-minute window), in this header.
 */
export const SIGNATURE_HEADER = 'x-kestrel-signature';
