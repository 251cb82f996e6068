import {
  isSignedWebhook,
  signWebhook,
  WEBHOOK_TOLERANCE_SECONDS,
} from '../../platform/webhooks.js';

/*
 * The identity provider signs its callbacks with the platform's one webhook scheme
 * (platform/webhooks.ts: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, refused
 * outside a 5-minute window), in its own header.
 */

/** The header a callback's signature travels in. */
export const IDV_SIGNATURE_HEADER = 'idv-signature';
/** A callback older (or further in the future) than this is refused: a replay. */
export const IDV_CALLBACK_TOLERANCE_S = WEBHOOK_TOLERANCE_SECONDS;

/** The signature header of `body` sent at `now`. */
export function signIdvCallback(secret: string, body: string, now: Date): string {
  return signWebhook(secret, Math.floor(now.getTime() / 1000), body);
}

/**
 * True when `header` signs `raw` with `secret` within the window of `nowSeconds` (the check
 * engine's provider entry verifies callbacks with it). No secret, no header, no timestamp, a
 * stale one or a wrong signature: false.
 */
export const verifyIdvSignature = isSignedWebhook;
