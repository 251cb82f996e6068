import { PAYMENT_TEXTS } from '@kestrel/domain';

/**
 * Where 'Continue' takes the person once paid. The link that sent them here names it (`next`, a
 * path of this site: the self-initiate page of their registration, their dashboard for a licence
 * fee); it is kept for the page's return from a bank's 3-D Secure check (the provider returns to
 * the bare address). Without one, a signed-in subject goes to their dashboard; anyone else has
 * nowhere to be sent.
 */
export const NEXT_KEY = (id: string) => `kestrel-payment-next-${id}`;

/** A path of this site only: '/…', not '//host' or '/\\host', no scheme, no spaces. */
export function sitePath(v: string | null): string | null {
  if (!v || v.length > 500) return null;
  return /^\/(?![/\\])[^\s\\]*$/.test(v) ? v : null;
}

/** What the link asks of the page: where to continue and what is paid for (a licence fee). */
export interface PortalLink {
  next: string | null;
  licence: boolean;
}

/** Reads the link's `next` and `for`, keeping them (per payment) for the return from the bank. */
export function readLink(search: string, id: string, store: Storage | null): PortalLink {
  const params = new URLSearchParams(search);
  const fromUrl = { next: sitePath(params.get('next')), licence: params.get('for') === 'licence' };
  if (fromUrl.next || fromUrl.licence) {
    try {
      store?.setItem(NEXT_KEY(id), JSON.stringify(fromUrl));
    } catch {
      // a full or refused storage: the link works for this visit only
    }
    return fromUrl;
  }
  try {
    const kept: unknown = JSON.parse(store?.getItem(NEXT_KEY(id)) ?? 'null');
    if (typeof kept === 'object' && kept !== null) {
      const k = kept as { next?: unknown; licence?: unknown };
      return {
        next: sitePath(typeof k.next === 'string' ? k.next : null),
        licence: k.licence === true,
      };
    }
  } catch {
    // an unreadable value: nothing kept
  }
  return { next: null, licence: false };
}

/** Where 'Continue' goes: the link's path, else a signed-in subject's dashboard, else nowhere. */
export function continueTo(link: PortalLink, signedInSubject: boolean): string | null {
  return link.next ?? (signedInSubject ? '/s/dashboard' : null);
}

/** The page's texts: a licence application's fee names the application, not a check. */
export function portalTexts(licence: boolean) {
  return licence
    ? {
        ...PAYMENT_TEXTS,
        title: 'Pay your licence fee',
        paidBody:
          'Thank you. Your payment has been received and your licence application will now continue.',
        declinedBody:
          'Your payment was not taken. You can pay again from your application on your dashboard.',
      }
    : PAYMENT_TEXTS;
}

/** The label of the link on: 'Continue'. */
export const CONTINUE = 'Continue';
