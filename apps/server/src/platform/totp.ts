import { createGuardrails, generateSecret, generateURI, verify } from 'otplib';

/**
 * Accept 80-bit secrets (the common authenticator-app length, and the demo account's); secrets
 * we generate are 160 bits.
 */
export const totpGuardrails = createGuardrails({ MIN_SECRET_BYTES: 10 });

const PERIOD = 30;

export function newTotpSecret(): string {
  return generateSecret();
}

export function totpUri(secret: string, label: string): string {
  return generateURI({ issuer: 'Kestrel', label, secret });
}

/**
 * Checks a 6-digit code (±1 step of drift) at `now`. Returns the matched time step, or null.
 * The caller stores the step and refuses a step at or before the last accepted one (replay).
 */
export async function checkTotp(secret: string, code: string, now: Date): Promise<number | null> {
  if (!/^\d{6}$/.test(code)) return null;
  const epoch = Math.floor(now.getTime() / 1000);
  const r = await verify({
    secret,
    token: code,
    epoch,
    epochTolerance: PERIOD,
    guardrails: totpGuardrails,
  });
  if (!r.valid) return null;
  return 'timeStep' in r && typeof r.timeStep === 'number'
    ? r.timeStep
    : Math.floor(epoch / PERIOD);
}
