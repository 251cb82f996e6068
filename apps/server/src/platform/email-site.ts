import { type BrandDetails, brandDetailsForHost, knownBrandForHost } from '@kestrel/domain';
import type { FastifyRequest } from 'fastify';

/** Where an email comes from: the brand of the host the person used, and that host's address. */
export interface EmailSite {
  brand: BrandDetails;
  /** Base of the email's links, without a trailing slash. */
  publicUrl: string;
}

/**
 * The public address of the request when it came through one of the brands' hosts
 * (`http://127.0.0.1:8080` for the second brand); undefined for any other host. Only the brands'
 * own host names are believed, so a forged Host header never puts its address into an email.
 */
export function brandAddressOf(request: FastifyRequest): string | undefined {
  if (!knownBrandForHost(request.hostname)) return undefined;
  return `${request.protocol}://${request.host}`.toLowerCase();
}

/**
 * The site of an email: the address the request came through when it was a brand's host
 * (`actorAddress`, see brandAddressOf), else PUBLIC_URL; the brand is that address's host's.
 */
export function emailSite(actorAddress: string | undefined, publicUrl: string): EmailSite {
  const base = (actorAddress ?? publicUrl).replace(/\/$/, '');
  return { brand: brandDetailsForHost(new URL(base).hostname), publicUrl: base };
}
